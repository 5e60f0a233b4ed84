namespace SyncDataBenchmark.Runner;

/// <summary>The psql binary pipe with the manual's "Populating a Database" advice in the target's one transaction (target.sql).</summary>
public static class PsqlBinaryTunedPeer
{
    public static PeerDefinition Definition { get; } = PeerFolder.Load("PsqlBinaryTuned", PeerDefinition.PsqlBinaryTunedKey, "psql binary pipe, tuned",
        "psql \\copy to stdout (binary)",
        "psql truncate, drop primary key, maintenance_work_mem 1GB, \\copy from stdin (binary, freeze), re-add primary key, one transaction",
        "psql", PeerScopes.TargetStatements, new Dictionary<string, string> { ["format"] = "binary" });
}
