using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// Where NpgsqlReplication's commit-to-applied lag went in a follow run (docs/replication.md, "Where the lag goes"): over
/// every source transaction committed during the load that the follower applied (<see cref="Transactions"/>), the
/// quantiles (ms) of its four back-to-back stages, decode, relay, queue and apply; over its <see cref="Batches"/>, those
/// of the acknowledgement after each batch (ms) and of each batch's transactions and changes. <see cref="Dropped"/>:
/// samples SomeService did not keep past its cap (FollowStageLog), over the whole follow.
/// </summary>
public sealed record FollowStageSummary(
    int Transactions,
    StageQuantiles DecodeMs,
    StageQuantiles RelayMs,
    StageQuantiles QueueMs,
    StageQuantiles ApplyMs,
    int Batches,
    StageQuantiles AckMs,
    StageQuantiles BatchTransactions,
    StageQuantiles BatchChanges,
    long Dropped)
{
    /// <summary>The target's time spent applying these transactions' batches: each batch's apply once, summed (ms); null in records before it.</summary>
    public double? ApplyingMs { get; init; }

    /// <summary>When the first of these transactions committed on the target (its source commit plus its four stages, the follower's clock); null in records before it.</summary>
    public DateTimeOffset? FirstApplied { get; init; }

    /// <summary>The samples of transactions the source committed from <paramref name="from"/> to <paramref name="to"/>; null when none.</summary>
    public static FollowStageSummary? Of(FollowStages stages, DateTimeOffset from, DateTimeOffset to)
    {
        var samples = stages.Samples.Where(s => s.CommittedAt >= from && s.CommittedAt <= to).ToList();
        if (samples.Count == 0)
        {
            return null;
        }

        // The ack and the sizes are the batch's: once per batch, not once per transaction in it.
        var batches = samples.GroupBy(s => s.Batch).Select(g => g.First()).ToList();
        return new FollowStageSummary(
            samples.Count,
            StageQuantiles.Of([.. samples.Select(s => s.DecodeMs)]),
            StageQuantiles.Of([.. samples.Select(s => s.RelayMs)]),
            StageQuantiles.Of([.. samples.Select(s => s.QueueMs)]),
            StageQuantiles.Of([.. samples.Select(s => s.ApplyMs)]),
            batches.Count,
            StageQuantiles.Of([.. batches.Select(s => s.AckMs)]),
            StageQuantiles.Of([.. batches.Select(s => (double)s.BatchTransactions)]),
            StageQuantiles.Of([.. batches.Select(s => (double)s.BatchChanges)]),
            stages.Dropped)
        {
            ApplyingMs = Math.Round(batches.Sum(s => s.ApplyMs), 1),
            FirstApplied = samples.Min(s => s.CommittedAt.AddMilliseconds(s.DecodeMs + s.RelayMs + s.QueueMs + s.ApplyMs)),
        };
    }
}
