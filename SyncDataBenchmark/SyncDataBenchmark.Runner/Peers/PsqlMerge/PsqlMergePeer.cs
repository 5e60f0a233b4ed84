namespace SyncDataBenchmark.Runner;

/// <summary>
/// The plain limit of a change sync through one connection each way: the target's psql reads its watermark, pulls
/// changed_&lt;table&gt;(W) and deleted_&lt;table&gt;(W) from the source as binary COPY (\copy … from program) into temp
/// tables, MERGEs and deletes, and stores the new watermark, in one transaction (target.sql). --changed only.
/// </summary>
public static class PsqlMergePeer
{
    public static PeerDefinition Definition { get; } = PeerFolder.Load("PsqlMerge", PeerDefinition.PsqlMergeKey, "psql temp table + MERGE",
        "psql \\copy of changed_<table>(W) and deleted_<table>(W) (binary)", "temp tables, MERGE + delete, one transaction", "psql",
        PeerScopes.TargetStatements, PeerFolder.SharedValues) with { Changes = true };
}
