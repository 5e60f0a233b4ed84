namespace SyncDataBenchmark.Runner;

/// <summary>
/// The target pulls the changes itself through postgres_fdw: its watermark written into a source table through a
/// foreign table, then MERGE from a foreign view of changed_&lt;table&gt;(W) and a delete joined with one of
/// deleted_&lt;table&gt;(W), in one transaction (the views and server set up untimed, dropped after). --changed only.
/// </summary>
public static class PostgresFdwMergePeer
{
    public static PeerDefinition Definition { get; } = PeerFolder.Load("PostgresFdwMerge", PeerDefinition.PostgresFdwMergeKey, "postgres_fdw + MERGE",
        "postgres_fdw foreign views of changed_<table>(W) and deleted_<table>(W) (fetch_size 10000)", "MERGE from the foreign view + delete, one transaction", "psql",
        PeerScopes.TargetStatements, PeerFolder.SharedValues) with { Changes = true };
}
