namespace SyncDataBenchmark.Runner;

/// <summary>
/// Logical replication keeping the copy in sync: a publication, slot and (disabled) subscription made before the
/// target is made equal to the source and the source changes, then timed from enabling the subscription until it has
/// caught up (target.sql). On one host the slot also reads past the WAL of the target's own baseline copy, which a
/// real source's WAL would not hold. Needs wal_level = logical. --changed only.
/// </summary>
public static class LogicalReplicationCatchupPeer
{
    public static PeerDefinition Definition { get; } = PeerFolder.Load("LogicalReplicationCatchup", PeerDefinition.LogicalReplicationCatchupKey,
        "logical replication catch-up", "publication + logical slot (pgoutput), made before the change",
        "subscription in sync before the change: enable it, wait until caught up", "psql", PeerScopes.TargetStatements,
        PeerFolder.Subscription("syncdata_catchup")) with { Changes = true };
}
