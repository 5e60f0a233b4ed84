namespace SyncDataBenchmark.Runner;

/// <summary>
/// PostgreSQL's own initial table synchronisation: a publication on the source, a subscription with copy_data on the
/// target, timed from the target's truncate until the table is synchronised. The slot is created beforehand, untimed
/// (source-setup.sql says why), and dropping the subscription drops it. Needs wal_level = logical.
/// </summary>
public static class LogicalReplicationPeer
{
    public static PeerDefinition Definition { get; } = PeerFolder.Load("LogicalReplication", PeerDefinition.LogicalReplicationKey,
        "logical replication initial sync", "publication + logical slot (pgoutput) on the source",
        "truncate, CREATE SUBSCRIPTION (copy_data), wait until the table is synchronised", "psql", PeerScopes.TargetStatements,
        PeerFolder.Subscription("syncdata_peer"));
}
