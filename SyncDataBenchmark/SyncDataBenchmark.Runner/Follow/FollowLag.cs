using Npgsql;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// Commit-to-applied lag on one clock, the same way for every mechanism: after the target caught up, each row still in
/// the source whose version was committed during the load is joined by key to the target's row; its lag is the time the
/// target committed that version (its commit record in the cluster's WAL, applied-times.sql) minus the source's commit
/// (pg_xact_commit_timestamp). Source and target are databases of one cluster: one clock. The sample is the last
/// version of each surviving row: deletes and overwritten versions leave no row to time.
/// </summary>
public static class FollowLag
{
    /// <summary>The lags (ms), and the source's and the target's last commit among the sampled rows (ms since the epoch).</summary>
    public sealed record Sample(IReadOnlyList<double> LagsMs, double? LastSourceCommitMs, double? LastTargetCommitMs);

    /// <param name="walStart">The WAL position before the load began: every commit the target made since is read from there.</param>
    public static async Task<Sample> MeasureAsync(string sourceDb, string targetDb, SyncTable table, DateTime loadStart, DateTime loadEnd, string walStart, CancellationToken ct)
    {
        var walEnd = await FlushedPositionAsync(sourceDb, ct);
        var source = await TimesAsync(sourceDb, FollowSql.Fill(FollowSql.Read("commit-times.sql"), table), loadStart, loadEnd, ct);
        var target = await TimesAsync(targetDb, FollowSql.Fill(FollowSql.Read("applied-times.sql"), table), walStart, walEnd, ct);
        var lags = new List<double>(source.Count);
        var lastTarget = (double?)null;
        foreach (var (key, committed) in source)
        {
            if (target.TryGetValue(key, out var applied))
            {
                lags.Add(applied - committed);
                lastTarget = Math.Max(lastTarget ?? applied, applied);
            }
        }

        return new Sample(lags, source.Count > 0 ? source.Values.Max() : null, lastTarget);
    }

    /// <summary>The target's last commit (ms since the epoch) of a row still in the table, among the commits in the WAL since <paramref name="walStart"/>; null when none.</summary>
    public static async Task<double?> LastAppliedAsync(string sourceDb, string targetDb, SyncTable table, string walStart, CancellationToken ct)
    {
        var walEnd = await FlushedPositionAsync(sourceDb, ct);
        var target = await TimesAsync(targetDb, FollowSql.Fill(FollowSql.Read("applied-times.sql"), table), walStart, walEnd, ct);
        return target.Count > 0 ? target.Values.Max() : null;
    }

    /// <summary>The WAL's insert position now (wal-position.sql), returned once it is flushed.</summary>
    public static async Task<string> FlushedPositionAsync(string connectionString, CancellationToken ct)
    {
        var position = (string)(await FollowSql.RowAsync(connectionString, FollowSql.Read("wal-position.sql"), ct))[0]!;
        while (!(bool)(await FollowSql.RowAsync(connectionString, FollowSql.Read("wal-flushed.sql"), ct, position))[0]!)
        {
            await Task.Delay(50, ct);
        }

        return position;
    }

    private static async Task<Dictionary<string, double>> TimesAsync(string connectionString, string sql, object from, object to, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(sql, connection) { Parameters = { new() { Value = from }, new() { Value = to } } };
        var times = new Dictionary<string, double>(StringComparer.Ordinal);
        await using var reader = await command.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            times[reader.GetString(0)] = reader.GetDouble(1);
        }

        return times;
    }
}
