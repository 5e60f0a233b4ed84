namespace SyncDataBenchmark.Runner.Follow;

/// <summary>The mechanisms --follow measures, in the order each cell lists them (the seed's shuffle starts from it).</summary>
public static class FollowMechanisms
{
    /// <summary>Every slot, publication and subscription a mechanism makes starts with this.</summary>
    public const string Prefix = "syncdata_follow";

    /// <summary>
    /// How to make each mechanism: every run gets an instance of its own (FollowCommand.Order), since a mechanism holds its
    /// run's state (the polled log's loop, its syncs and failure), which a shared instance carried from one run to the next.
    /// </summary>
    public static IReadOnlyList<Func<IFollowMechanism>> Kinds { get; } = [() => new NpgsqlReplicationMechanism(), () => new NativeSubscriptionMechanism(), () => new ChangeLogPollMechanism()];
}
