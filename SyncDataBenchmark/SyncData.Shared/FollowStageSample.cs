namespace SyncData.Shared;

/// <summary>
/// Where one source transaction's commit-to-applied lag went, as NpgsqlReplication's follower measured it
/// (GET /follow/{table}/stages; docs/replication.md, "Where the lag goes"). <see cref="CommittedAt"/> is the source's
/// commit (pgoutput's commit timestamp); the stages follow it back to back: <see cref="DecodeMs"/> until SyncDataSource
/// received the Commit message, <see cref="RelayMs"/> until SomeService read the commit frame, <see cref="QueueMs"/> until
/// the target transaction of its batch began, <see cref="ApplyMs"/> until that transaction's commit returned. Their sum is
/// the transaction's lag. <see cref="AckMs"/> is what the follower spent acknowledging after its batch (the hand-over to its
/// Acknowledger, which sends off the apply path; before it, the request's round trip, which the next batch waited for);
/// <see cref="Batch"/> numbers the follower's batches, <see cref="BatchTransactions"/> and <see cref="BatchChanges"/> are
/// its batch's size. The clocks are the services' and PostgreSQL's: one host's, or the decode/relay split needs them synced.
/// </summary>
public readonly record struct FollowStageSample(
    DateTimeOffset CommittedAt,
    double DecodeMs,
    double RelayMs,
    double QueueMs,
    double ApplyMs,
    double AckMs,
    long Batch,
    int BatchTransactions,
    long BatchChanges);
