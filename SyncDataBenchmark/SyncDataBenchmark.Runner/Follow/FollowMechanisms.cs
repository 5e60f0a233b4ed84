namespace SyncDataBenchmark.Runner.Follow;

/// <summary>The mechanisms --follow measures, in the order each rate runs them.</summary>
public static class FollowMechanisms
{
    /// <summary>Every slot, publication and subscription a mechanism makes starts with this.</summary>
    public const string Prefix = "syncdata_follow";

    public static IReadOnlyList<IFollowMechanism> All { get; } = [new NpgsqlReplicationMechanism(), new NativeSubscriptionMechanism(), new ChangeLogPollMechanism()];
}
