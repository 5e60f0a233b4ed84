namespace SyncData.Shared;

/// <summary>
/// A NpgsqlReplication follower as SomeService reports it (GET /follow/{table}): <see cref="AppliedLsn"/> is the source
/// LSN the target has committed (and stored beside its rows); <see cref="LagMs"/> the last applied transaction's source
/// commit to its commit on the target.
/// </summary>
public sealed record FollowStatus(
    string Table,
    string Slot,
    string State,
    string? AppliedLsn,
    DateTimeOffset? LastSourceCommit,
    long RowsCopied,
    long ChangesApplied,
    long TransactionsApplied,
    double? LagMs,
    string? Error)
{
    public const string Copying = "copying";
    public const string Following = "following";
    public const string Failed = "failed";
    public const string Stopped = "stopped";
}
