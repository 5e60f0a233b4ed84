namespace SyncDataBenchmark.Runner;

/// <summary>
/// The target pulls the rows itself through postgres_fdw: truncate + INSERT … SELECT from a foreign table in one
/// transaction. Server, user mapping and foreign table are set up untimed before each run and dropped after it.
/// </summary>
public static class PostgresFdwPeer
{
    public static PeerDefinition Definition { get; } = PeerFolder.Load("PostgresFdw", PeerDefinition.PostgresFdwKey, "postgres_fdw pull",
        "postgres_fdw cursor on the source (fetch_size 10000)", "truncate + INSERT … SELECT from the foreign table, one transaction", "psql",
        PeerScopes.TargetStatements, PeerFolder.SharedValues);
}
