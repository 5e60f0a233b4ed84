using System.Text.Json.Serialization;
using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// Where NpgsqlReplication's commit-to-applied lag went in a follow run (docs/replication.md, "Where the lag goes"): the
/// quantiles (ms) of each stage (<see cref="FollowStage.All"/>, declared once there), over every source transaction
/// committed during the load that the follower applied (<see cref="Transactions"/>) or, for a stage once per batch (the
/// acknowledgement), over its <see cref="Batches"/>; and of each batch's transactions and changes. <see cref="Dropped"/>:
/// samples SomeService did not keep past its cap (FollowStageLog), over the whole follow. In the record each stage is its
/// name + "Ms" (FollowStageSummaryJson), as before the stages were declared once.
/// </summary>
[JsonConverter(typeof(FollowStageSummaryJson))]
public sealed record FollowStageSummary(
    int Transactions,
    IReadOnlyDictionary<string, StageQuantiles> Stages,
    int Batches,
    StageQuantiles BatchTransactions,
    StageQuantiles BatchChanges,
    long Dropped)
{
    /// <summary>A stage's quantiles.</summary>
    public StageQuantiles this[FollowStage stage] => Stages[stage.Name];

    /// <summary>The target's time spent applying these transactions' batches: each batch's apply once, summed (ms); null in records before it.</summary>
    public double? ApplyingMs { get; init; }

    /// <summary>When the first of these transactions committed on the target (its source commit plus its lag's stages, the follower's clock); null in records before it.</summary>
    public DateTimeOffset? FirstApplied { get; init; }

    /// <summary>The samples of transactions the source committed from <paramref name="from"/> to <paramref name="to"/>; null when none.</summary>
    public static FollowStageSummary? Of(FollowStages stages, DateTimeOffset from, DateTimeOffset to)
    {
        var samples = stages.Samples.Where(s => s.CommittedAt >= from && s.CommittedAt <= to).ToList();
        if (samples.Count == 0)
        {
            return null;
        }

        // A batch's own figures (its ack, its size) once per batch, not once per transaction in it.
        var batches = samples.GroupBy(s => s.Batch).Select(g => g.First()).ToList();
        return new FollowStageSummary(
            samples.Count,
            FollowStage.All.ToDictionary(s => s.Name, s => StageQuantiles.Of([.. (s.PerBatch ? batches : samples).Select(s.Of)])),
            batches.Count,
            StageQuantiles.Of([.. batches.Select(s => (double)s.BatchTransactions)]),
            StageQuantiles.Of([.. batches.Select(s => (double)s.BatchChanges)]),
            stages.Dropped)
        {
            ApplyingMs = Math.Round(batches.Sum(FollowStage.Apply.Of), 1),
            FirstApplied = samples.Min(s => s.CommittedAt.AddMilliseconds(FollowStage.LagMs(s))),
        };
    }
}
