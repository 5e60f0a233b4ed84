using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Makes the target differ from the source before a run, untimed, so that a run or a tool that does nothing can never
/// verify: emptied with a sentinel row (the classic runs), or, with --changed, equal to the source at one instant after
/// which the source changes by a share of its rows (ChangedBaseline), checked by checksum to differ.
/// </summary>
public static class TargetPreparation
{
    /// <summary>The classic start: the target emptied but for a sentinel row no source holds (Lab.MakeTargetDifferAsync).</summary>
    public static async Task<TargetStart> EmptyAsync(string targetDb, SyncTable table, TableChecksum source, CancellationToken ct)
    {
        await Lab.MakeTargetDifferAsync(targetDb, table, source, ct);
        var target = await Lab.ReadChecksumAsync(targetDb, table, ct);
        if (target == source)
        {
            throw new InvalidOperationException($"The target's {table.Name} equals the source after it was emptied and given a sentinel row: a run could verify without syncing.");
        }

        return new TargetStart(source, target);
    }

    /// <summary>
    /// --changed: ChangedBaseline.PrepareAsync (the target equal to the source at one instant, with that instant as its
    /// watermark, then change_&lt;table&gt;(share, seed) on the source), then both checksums read: the source's is what
    /// the run must reach, and the target's must differ from it. The sentinel row does not fit here: a change sync
    /// would never see it.
    /// </summary>
    public static async Task<TargetStart> ChangedAsync(string sourceDb, string targetDb, SyncTable table, double share, int seed, CancellationToken ct)
    {
        ChangeMix changes;
        await using (var source = NpgsqlDataSource.Create(sourceDb))
        await using (var target = NpgsqlDataSource.Create(targetDb))
        {
            var counts = await ChangedBaseline.PrepareAsync(source, target, table, share, seed, ct);
            changes = new ChangeMix(counts.Updated, counts.Inserted, counts.Deleted);
        }

        var sourceNow = await Lab.ReadChecksumAsync(sourceDb, table, ct);
        var targetNow = await Lab.ReadChecksumAsync(targetDb, table, ct);
        if (sourceNow == targetNow)
        {
            throw new InvalidOperationException(
                $"The target's {table.Name} equals the source after changing {ChangedShare.Format(share)} of its rows ({changes.Updated:N0} updated, " +
                $"{changes.Inserted:N0} inserted, {changes.Deleted:N0} deleted): a run could verify without syncing.");
        }

        return new TargetStart(sourceNow, targetNow, changes, ChangedShare.Format(share), share);
    }
}
