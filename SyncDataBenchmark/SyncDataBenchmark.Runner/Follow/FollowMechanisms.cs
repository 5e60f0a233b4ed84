namespace SyncDataBenchmark.Runner.Follow;

/// <summary>The mechanisms --follow measures, in the order each cell lists them (the seed's shuffle starts from it).</summary>
public static class FollowMechanisms
{
    /// <summary>Every slot, publication and subscription a mechanism makes starts with this.</summary>
    public const string Prefix = "syncdata_follow";

    /// <summary>
    /// A slot or publication of <paramref name="table"/>: the prefix and the table's name, each character a slot name
    /// does not take (a-z, 0-9, _) made '_', at most 63 characters (a user's "Sales"."Order Lines": syncdata_follow_sales__order_lines).
    /// </summary>
    public static string Named(SyncData.Postgres.SyncTable table)
    {
        var name = $"{Prefix}_{new string([.. table.Name.ToLowerInvariant().Select(c => c is (>= 'a' and <= 'z') or (>= '0' and <= '9') ? c : '_')])}";
        return name.Length <= 63 ? name : name[..63];
    }

    /// <summary>
    /// How to make each mechanism: every run gets an instance of its own (FollowCommand.Order), since a mechanism holds its
    /// run's state (the polled log's loop, its syncs and failure), which a shared instance carried from one run to the next.
    /// </summary>
    public static IReadOnlyList<Func<IFollowMechanism>> Kinds { get; } = [() => new NpgsqlReplicationMechanism(), () => new NativeSubscriptionMechanism(), () => new ChangeLogPollMechanism()];
}
