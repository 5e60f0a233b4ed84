using SyncDataBenchmark.Runner.Report;
namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// A mechanism's capacity (--drain): a backlog of <see cref="BacklogChanges"/> changes written while it was stopped
/// (pgbench unthrottled), then the time from its restart until the target committed the last of them (<see cref="Ms"/>),
/// as <see cref="RowsPerSecond"/>, verified by checksum; and the CPU the whole system spent on it (<see cref="Cpu"/>).
/// </summary>
public sealed record FollowDrain(long BacklogChanges, double? Ms, bool Verified, string? Error)
{
    public double? RowsPerSecond => Ms is > 0 ? Math.Round(BacklogChanges / (Ms.Value / 1000), 1) : null;

    public FollowDrainCpu? Cpu { get; init; }

    /// <summary>
    /// Where the drain's time went (NpgsqlReplication; null for the others and in records before it): the backlog's
    /// transactions as the follower applied them, their batches' sizes and apply (the decode stage holds the time the
    /// mechanism was stopped, so it is no lag here).
    /// </summary>
    public FollowStageSummary? Stages { get; init; }

    /// <summary>From the restart to the target's commit of the first backlog transaction (the follower's clock): the part of <see cref="Ms"/> spent starting.</summary>
    public double? FirstAppliedMs { get; init; }

    /// <summary>The whole system's CPU per drained change (µs): the services the mechanism uses and the cluster's processes.</summary>
    public double? CpuPerChangeUs => Cpu is { Missing: null } cpu && BacklogChanges > 0 ? Math.Round(cpu.TotalMs * 1000 / BacklogChanges, 1) : null;
}
