namespace SyncDataBenchmark.Tests;

/// <summary>
/// Timestamps planted in a source's users, one row each (a lab's PlantCreatedAtAsync: value, row id, rows after the
/// planted one), so that one run carries them all; disposed, every planted row is set back to an ordinary value.
/// </summary>
public sealed class PlantedTimestamps : IAsyncDisposable
{
    private readonly Func<string, Guid?, int, Task<Guid>> _plant;
    private readonly List<(Guid Id, string Value)> _rows = [];

    private PlantedTimestamps(Func<string, Guid?, int, Task<Guid>> plant) => _plant = plant;

    /// <summary>Each planted row's id and the value it holds.</summary>
    public IReadOnlyList<(Guid Id, string Value)> Rows => _rows;

    /// <summary>Plants <paramref name="values"/>, the i-th in the i-th row after the lab's planted row.</summary>
    public static async Task<PlantedTimestamps> PlantAsync(Func<string, Guid?, int, Task<Guid>> plant, IEnumerable<string> values)
    {
        var planted = new PlantedTimestamps(plant);
        try
        {
            foreach (var value in values)
            {
                planted._rows.Add((await plant(value, null, planted._rows.Count), value));
            }

            return planted;
        }
        catch
        {
            await planted.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var (id, _) in _rows)
        {
            await _plant("2025-01-01 00:00:00", id, 0);
        }
    }
}
