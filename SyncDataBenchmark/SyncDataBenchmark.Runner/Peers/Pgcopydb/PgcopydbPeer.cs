namespace SyncDataBenchmark.Runner;

/// <summary>
/// pgcopydb 0.10 neither truncates (psql does it first, in the timed command) nor fails on a failed COPY (it exits 0;
/// fixed in 0.11), so its log is scanned for errors. It also runs VACUUM ANALYZE on the target. Its time is the whole
/// command's: the tool has no hook to read the target's clock around its statements. It copies every table of the
/// source database unless filters.ini keeps it to the one under test.
/// </summary>
public static class PgcopydbPeer
{
    public static PeerDefinition Definition { get; } = PeerFolder.Load("Pgcopydb", PeerDefinition.PgcopydbKey, "psql truncate, then pgcopydb copy table-data",
        "pgcopydb COPY TO", "psql truncate (own transaction), then pgcopydb COPY FROM + VACUUM ANALYZE", "pgcopydb", PeerScopes.WholeCommand)
        with { ErrorLog = "pgcopydb.log", ReadsSourceOnly = true };
}
