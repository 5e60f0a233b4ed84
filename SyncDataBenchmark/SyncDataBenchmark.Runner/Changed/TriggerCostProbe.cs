using System.Diagnostics;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Times change_&lt;table&gt;(share, seed) on the source with its change-log triggers and with them disabled
/// (alter table … disable trigger user), each inside a transaction rolled back, so every sample changes the same rows
/// of the same data and the source is left as it was. Alternated (tracked, untracked, untracked, tracked, …) so that
/// neither side always runs on the warmer cache.
/// </summary>
public static class TriggerCostProbe
{
    public const int Samples = 3;
    private const int Seed = 1;

    private static readonly string DisableTracking = Read("disable-tracking.sql");

    public static async Task<TriggerCost> MeasureAsync(string sourceDb, SyncTable table, double share, CancellationToken ct)
    {
        var tracked = new List<double>();
        var untracked = new List<double>();
        long changedRows = 0;
        long rows;
        await using (var source = NpgsqlDataSource.Create(sourceDb))
        {
            rows = (long)(await Lab.ScalarAsync(sourceDb, $"select count(*) from {table.Name}", ct))!;
            for (var i = 0; i < Samples * 2; i++)
            {
                var withTriggers = i % 4 is 0 or 3;
                var (ms, changed) = await TimeOnceAsync(source, table, share, withTriggers, ct);
                (withTriggers ? tracked : untracked).Add(ms);
                changedRows = changed;
            }
        }

        return new TriggerCost(table.Name, ChangedShare.Format(share), share, rows, changedRows, Samples,
            Math.Round(Statistics.Median(tracked)!.Value, 1), Math.Round(Statistics.Median(untracked)!.Value, 1));
    }

    private static async Task<(double Ms, long Changed)> TimeOnceAsync(NpgsqlDataSource source, SyncTable table, double share, bool withTriggers, CancellationToken ct)
    {
        await using var connection = await source.OpenConnectionAsync(ct);
        await using var transaction = await connection.BeginTransactionAsync(ct);
        if (!withTriggers)
        {
            await using var disable = new NpgsqlCommand(PeerFolder.ForTable(DisableTracking, table), connection, transaction);
            await disable.ExecuteNonQueryAsync(ct);
        }

        await using var change = new NpgsqlCommand(SqlScripts.ForTable(table, "change.sql"), connection, transaction) { CommandTimeout = 0 };
        change.Parameters.Add(new() { Value = share });
        change.Parameters.Add(new() { Value = Seed });
        var clock = Stopwatch.StartNew();
        long changed;
        await using (var reader = await change.ExecuteReaderAsync(ct))
        {
            await reader.ReadAsync(ct);
            changed = reader.GetInt64(0) + reader.GetInt64(1) + reader.GetInt64(2);
        }

        var ms = clock.Elapsed.TotalMilliseconds;
        await transaction.RollbackAsync(ct);
        return (ms, changed);
    }

    private static string Read(string name) => EmbeddedText.Read(typeof(TriggerCostProbe).Assembly, $"Changed/{name}");
}
