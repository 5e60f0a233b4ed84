using SyncData.Postgres;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// One way of keeping the target's copy of a table fresh while the source takes writes (--follow). Every mechanism
/// makes its own first copy into a target that starts emptied but for a sentinel row, and names everything it creates
/// after <see cref="FollowMechanisms.Prefix"/>, so the leftover check (FollowLeftovers) finds what a stop missed.
/// </summary>
public interface IFollowMechanism
{
    /// <summary>The name results.md shows.</summary>
    string Name { get; }

    /// <summary>Reads the source's change log: only then are its triggers on during the run (FollowRunner), so the other mechanisms' writers do not pay for them.</summary>
    bool ReadsChangeLog { get; }

    /// <summary>Uses SomeService and SyncDataSource (the native subscription does not): their CPU counts in the drain's.</summary>
    bool UsesServices { get; }

    /// <summary>Why this mechanism cannot follow <paramref name="table"/> (said, and its runs left out), or null when it can.</summary>
    string? WhyNot(SyncTable table) => null;

    /// <summary>
    /// Follows a user's table by opt-in (FollowContext.UsersDatabase): only a mechanism whose every object on the user's
    /// database is what --follow-install names (a publication and a slot) and that measures its own lag (the runner
    /// reads no WAL there).
    /// </summary>
    bool FollowsUsersTable => false;

    /// <summary>Starts following; returns once the first copy is in and changes flow.</summary>
    Task StartAsync(FollowContext lab, SyncTable table, CancellationToken ct);

    /// <summary>Why the mechanism stopped applying (a failed follower, an apply error), or null while it works.</summary>
    Task<string?> FailureAsync(FollowContext lab, SyncTable table, CancellationToken ct);

    /// <summary>The replication slot whose WAL the source keeps for this mechanism, or null (none: the polled change log).</summary>
    string? SlotOf(SyncTable table);

    /// <summary>Stops applying and keeps everything (slot, subscription, watermark): the outage of --outage.</summary>
    Task PauseAsync(FollowContext lab, SyncTable table, CancellationToken ct);

    /// <summary>Applies again from where the pause left it, without a new first copy.</summary>
    Task ResumeAsync(FollowContext lab, SyncTable table, CancellationToken ct);

    /// <summary>Opens the window over the load and catch-up in which both services' CPU and allocation are measured.</summary>
    Task<FollowCostWindow> OpenCostWindowAsync(FollowContext lab, CancellationToken ct);

    /// <summary>
    /// Where the lag of the transactions the source committed from <paramref name="from"/> to <paramref name="to"/> went,
    /// read once the target caught up; null for a mechanism that cannot say (only NpgsqlReplication's follower measures it).
    /// </summary>
    Task<FollowStageSummary?> StagesAsync(FollowContext lab, SyncTable table, DateTimeOffset from, DateTimeOffset to, CancellationToken ct);

    /// <summary>
    /// The lag (ms) of each source transaction committed from <paramref name="from"/> to <paramref name="to"/> (the
    /// source's clock) as the mechanism timed it itself, or null when it does not: on a user's table, whose WAL the runner
    /// does not read, the only lag there is.
    /// </summary>
    Task<IReadOnlyList<double>?> OwnLagsAsync(FollowContext lab, SyncTable table, DateTimeOffset from, DateTimeOffset to, CancellationToken ct) =>
        Task.FromResult<IReadOnlyList<double>?>(null);

    /// <summary>Stops following and drops every slot, publication and subscription it made; safe after a failed or partial start, and twice.</summary>
    Task StopAsync(FollowContext lab, SyncTable table);
}
