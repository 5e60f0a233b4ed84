using SyncDataBenchmark.Runner.Report;
namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// One run of the --follow matrix: a mechanism keeping <see cref="Table"/>'s copy fresh while pgbench wrote at
/// <see cref="WriteRate"/> rows/s for <see cref="Seconds"/> s (docs/replication.md, "The --follow matrix").
/// </summary>
public sealed record FollowRun(string Table, string Mechanism, long WriteRate, double Seconds)
{
    /// <summary>Which repeat of its cell (table × rate × mechanism) this run was, from 1; the cells' runs go in an order drawn from the record's seed.</summary>
    public int Repeat { get; init; } = 1;
    /// <summary>pgbench's -R: the rate over the script's mean rows per transaction (FollowLoad).</summary>
    public double TransactionsPerSecondAsked { get; init; }
    /// <summary>pgbench's own report: "number of transactions actually processed" and its tps.</summary>
    public long? PgbenchTransactions { get; init; }
    public double? PgbenchTps { get; init; }
    /// <summary>The source table's change-log row triggers as the catalog had them once pgbench stopped: on only for the mechanism that reads the log; null in records made before this was chosen per mechanism (then always on), or when only some were on.</summary>
    public bool? ChangeLogTriggers { get; init; }
    /// <summary>What pgbench's writers paid per transaction (its per-transaction log); null in older records.</summary>
    public WriterTransactionSummary? Writers { get; init; }
    /// <summary>The source table's inserted + updated + deleted rows over the load (its heap records in the WAL; pg_stat_user_tables in records before it), the rows the mechanism had to apply.</summary>
    public long? SourceRowsWritten { get; init; }
    /// <summary>The load's length on the cluster's clock (ms): <see cref="SourceRowsWritten"/> over it is the rate achieved.</summary>
    public double? LoadMs { get; init; }
    /// <summary>The rows per transaction the write load asked for, by kind (its script's '-- mix:' line); null in older records.</summary>
    public WriteMix? MixAsked { get; init; }
    /// <summary>The rows it wrote, by kind (its heap records in the WAL over the load); null in older records.</summary>
    public WriteMix? MixAchieved { get; init; }
    /// <summary>Rows written a second while pgbench ran: what the load achieved, beside <see cref="WriteRate"/> asked.</summary>
    public double? RowsWrittenPerSecond => SourceRowsWritten is { } rows && LoadMs is > 0 ? Math.Round(rows / (LoadMs.Value / 1000), 1) : null;
    /// <summary>Commit-to-applied lag over the run's sample (FollowLag); null when nothing was sampled.</summary>
    public FollowLagSummary? Lag { get; init; }
    /// <summary>Where NpgsqlReplication's lag went, per stage (its follower's samples); null for the other mechanisms and in records before it.</summary>
    public FollowStageSummary? Stages { get; init; }
    /// <summary><see cref="SourceRowsWritten"/> over the time from the load's start until the target had caught up.</summary>
    public double? RowsAppliedPerSecond { get; init; }
    /// <summary>The target's last commit of a sampled row after the source's last: how long the target took to catch up once the load stopped.</summary>
    public double? CatchUpMs { get; init; }
    /// <summary>--drain after the catch-up: a backlog built while the mechanism was stopped, the time it took to apply it, its CPU; null without --drain or when the run failed before.</summary>
    public FollowDrain? Drain { get; init; }
    /// <summary>--outage after the catch-up: what the mechanism's stop held and how long the target took to catch up after it; null without --outage or when the run failed before.</summary>
    public FollowOutage? Outage { get; init; }
    /// <summary>The target equalled the source by the runner's checksum within the catch-up bound after the load stopped.</summary>
    public bool Verified { get; init; }
    public string? Error { get; init; }
    /// <summary>Both services' CPU and allocation over the load and catch-up (FollowCostWindow); null in records made before it was measured.</summary>
    public FollowCost? Cost { get; init; }
    /// <summary>Slots, publications or subscriptions the run left on the source or target after its stop, named; null: none (FollowRunner.LeftBehindAsync).</summary>
    public string? LeftBehind { get; init; }

    /// <summary>Verified, and nothing left behind.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool Ok => Verified && LeftBehind is null && Outage is null or { Verified: true } && Drain is null or { Verified: true };
}
