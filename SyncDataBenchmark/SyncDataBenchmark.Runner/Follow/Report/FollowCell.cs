using SyncDataBenchmark.Runner.Report;
namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// One cell of the --follow matrix (table × write rate × mechanism) over its repeats: the runs in record order, and each
/// figure's median with its least and largest over the runs that have it (verified runs only: a failed run has no lag).
/// </summary>
public sealed record FollowCell(string Table, string Mechanism, long WriteRate, IReadOnlyList<FollowRun> Runs)
{
    /// <summary>The record's cells, in the order each first appears.</summary>
    public static IReadOnlyList<FollowCell> Of(IEnumerable<FollowRun> runs) =>
        [.. runs.GroupBy(r => (r.Table, r.Mechanism, r.WriteRate)).Select(g => new FollowCell(g.Key.Table, g.Key.Mechanism, g.Key.WriteRate, [.. g]))];

    public IReadOnlyList<FollowRun> Verified => [.. Runs.Where(r => r.Ok)];

    /// <summary>The median of <paramref name="figure"/> over the verified runs that have it, with its least and largest; null when none has it.</summary>
    public Spread? Of(Func<FollowRun, double?> figure) =>
        Verified.Select(figure).OfType<double>().ToList() is { Count: > 0 } values
            ? new Spread(Statistics.Median(values)!.Value, values.Min(), values.Max(), values.Count)
            : null;

    /// <summary>A figure over a cell's runs: its median, least and largest, and how many runs had it.</summary>
    public sealed record Spread(double Median, double Min, double Max, int N);
}
