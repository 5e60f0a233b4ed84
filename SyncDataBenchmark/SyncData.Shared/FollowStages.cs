namespace SyncData.Shared;

/// <summary>
/// A follower's stage samples (GET /follow/{table}/stages), one per source transaction it applied, oldest first, at
/// most the follower's cap: past it, later transactions are not kept, only counted in <see cref="Dropped"/>.
/// </summary>
public sealed record FollowStages(string Table, IReadOnlyList<FollowStageSample> Samples, long Dropped);
