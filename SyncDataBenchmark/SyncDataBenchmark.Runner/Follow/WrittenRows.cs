using SyncData.Postgres;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>The rows a write load wrote, by kind, counted from the source's WAL (rows-written.sql, pg_walinspect).</summary>
public static class WrittenRows
{
    /// <summary>The rows <paramref name="table"/> took since <paramref name="from"/> (a WAL position) until now, read once the WAL is flushed.</summary>
    public static async Task<WriteMix> SinceAsync(string sourceDb, SyncTable table, string from, CancellationToken ct)
    {
        var to = await FollowLag.FlushedPositionAsync(sourceDb, ct);
        var row = await FollowSql.RowAsync(sourceDb, FollowSql.Fill(FollowSql.Read("rows-written.sql"), table), ct, from, to);
        return new WriteMix((double)row[0]!, (double)row[1]!, (double)row[2]!);
    }
}
