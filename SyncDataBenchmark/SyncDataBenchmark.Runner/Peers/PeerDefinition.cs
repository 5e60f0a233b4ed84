using SyncData.Postgres;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A tool outside the lab that moves the same table between the same databases: the yardsticks. Each lives in a
/// folder of its own under Peers/ (see <see cref="PeerFolder"/>). Scripts read the databases from $SRC and $TGT
/// (libpq keyword/value strings without the password, which travels as PGPASSWORD), the source's parts from $SRC_HOST, $SRC_PORT,
/// $SRC_DB, $SRC_USER, $SRC_PASSWORD (if any) and $SRC_CONNINFO (for a target that connects to the source itself),
/// and may use $WORK, where <see cref="Files"/> are written first.
/// With <see cref="PeerScopes.TargetStatements"/> the script writes two lines to $WORK/clock: the target's epoch
/// seconds before its first statement and after its commit.
/// </summary>
public sealed record PeerDefinition(string Key, string Name, string FetchLabel, string InsertLabel, string Tool, string Script, string Scope)
{
    public const string PsqlBinaryKey = "psql-binary";
    public const string PsqlTextKey = "psql-text";
    public const string PgcopydbKey = "pgcopydb";
    public const string PostgresFdwKey = "postgres-fdw";
    public const string LogicalReplicationKey = "logical-replication";
    public const string PsqlBinaryTunedKey = "psql-binary-tuned";
    public const string PsqlMergeKey = "psql-merge";
    public const string PostgresFdwMergeKey = "postgres-fdw-merge";
    public const string LogicalReplicationCatchupKey = "logical-replication-catchup";

    /// <summary>Where the target's clock readings go (see <see cref="PeerScopes.TargetStatements"/>).</summary>
    public const string ClockFile = "clock";

    /// <summary>
    /// It brings a target that already holds the source's rows at the watermark up to date (its set-up runs before the
    /// source changes): it runs only with --changed, from a target ChangedBaseline prepared, not from an emptied one.
    /// </summary>
    public bool Changes { get; init; }

    /// <summary>Files written into $WORK before the run (untimed): SQL scripts, filters.</summary>
    public IReadOnlyDictionary<string, string> Files { get; init; } = new Dictionary<string, string>();

    /// <summary>Untimed, after the target was made to differ and before the timed script: the peer's own set-up.</summary>
    public string? Setup { get; init; }

    /// <summary>Untimed, after the timed script whatever happened (also when it failed): leaves nothing behind.</summary>
    public string? Teardown { get; init; }

    /// <summary>
    /// SQL run on the source before the session: one value, null when the peer can run on this server, else why not
    /// and what to change; such a peer is skipped with that reason (SessionMeasurements.SkippedPeers), not failed.
    /// </summary>
    public string? Precondition { get; init; }

    /// <summary>
    /// It only reads the source (a COPY out, no slot, publication, server or helper there), so it runs on a user's own
    /// table too (--source-connection, reached read only), the floor its cases are set against.
    /// </summary>
    public bool ReadsSourceOnly { get; init; }

    /// <summary>A file in $WORK holding the tool's log; any line at level ERROR or FATAL fails the run whatever the exit code.</summary>
    public string? ErrorLog { get; init; }

    /// <summary>In the order of the report's peer rows.</summary>
    public static IReadOnlyList<PeerDefinition> All { get; } =
    [
        PsqlPipePeer.Binary,
        PsqlPipePeer.Text,
        PgcopydbPeer.Definition,
        PostgresFdwPeer.Definition,
        LogicalReplicationPeer.Definition,
        PsqlBinaryTunedPeer.Definition,
        PsqlMergePeer.Definition,
        PostgresFdwMergePeer.Definition,
        LogicalReplicationCatchupPeer.Definition,
    ];

    /// <summary>This peer moving <paramref name="table"/>: its scripts and files with the table's name and columns filled in (PeerFolder).</summary>
    public PeerDefinition For(SyncTable table)
    {
        string? Fill(string? text) => text is null ? null : PeerFolder.ForTable(text, table);
        return this with
        {
            Script = Fill(Script)!, Setup = Fill(Setup), Teardown = Fill(Teardown), Precondition = Fill(Precondition),
            Files = Files.ToDictionary(f => f.Key, f => Fill(f.Value)!),
        };
    }

    /// <summary>Every peer's key, as --peers lists them.</summary>
    public static string Keys => string.Join(", ", All.Select(p => p.Key));

    /// <summary>The peer with this key (any case), or null.</summary>
    public static PeerDefinition? Find(string key) => All.FirstOrDefault(p => string.Equals(p.Key, key, StringComparison.OrdinalIgnoreCase));
}
