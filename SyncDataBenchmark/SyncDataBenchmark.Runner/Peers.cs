using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>What a peer's <see cref="PeerRun.DurationMs"/> covers, so that only like is compared with like.</summary>
public static class PeerScopes
{
    /// <summary>
    /// The target's own clock (clock_timestamp()) right before its truncate and right after its commit: process
    /// start and connection set-up excluded, as SomeService's durationMs (first target statement to commit).
    /// </summary>
    public const string TargetStatements = "target-statements";

    /// <summary>The whole command's wall time, process starts and connections included (tools that allow no other).</summary>
    public const string WholeCommand = "whole-command";
}

/// <summary>
/// A tool outside the lab that moves the same table between the same databases: the yardsticks. Scripts read the
/// databases from $SRC and $TGT (libpq URIs without the password, which travels as PGPASSWORD), the source's parts
/// from $SRC_HOST, $SRC_PORT, $SRC_DB, $SRC_USER, $SRC_PASSWORD (if any) and $SRC_CONNINFO (for a target that
/// connects to the source itself), and may use $WORK, where <see cref="Files"/> are written first.
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

    /// <summary>Where the target's clock readings go (see <see cref="PeerScopes.TargetStatements"/>).</summary>
    public const string ClockFile = "clock";

    /// <summary>Files written into $WORK before the run (untimed): SQL scripts, filters.</summary>
    public IReadOnlyDictionary<string, string> Files { get; init; } = new Dictionary<string, string>();

    /// <summary>Untimed, after the target was made to differ and before the timed script: the peer's own set-up.</summary>
    public string? Setup { get; init; }

    /// <summary>Untimed, after the timed script whatever happened (also when it failed): leaves nothing behind.</summary>
    public string? Teardown { get; init; }

    /// <summary>A file in $WORK holding the tool's log; any line at level ERROR or FATAL fails the run whatever the exit code.</summary>
    public string? ErrorLog { get; init; }

    public static IReadOnlyList<PeerDefinition> All { get; } =
    [
        PsqlPipe(PsqlBinaryKey, "psql binary pipe", "binary"),
        PsqlPipe(PsqlTextKey, "psql text pipe", "text"),
        Pgcopydb(),
        PostgresFdw(),
        LogicalReplication(),
        PsqlBinaryTuned(),
    ];

    private const string ClockSql = "select extract(epoch from clock_timestamp());";

    /// <summary>psql on the target running $WORK/target.sql, its query output (the clock) into $WORK/clock.</summary>
    private const string TargetPsql = """psql -X -q -At -v ON_ERROR_STOP=1 -d "$TGT" -o "$WORK/clock" -f "$WORK/target.sql" """;

    private const string SourceCopyOutBinary =
        $"""psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -c '\copy {UsersTable.Name} ({UsersTable.Columns}) to pstdout (format binary)' """;

    /// <summary>
    /// Two psql processes joined by a kernel pipe: the physical limit of moving the table through one stream.
    /// The target truncates and copies in one transaction, as SomeService does; \copy … from pstdin reads psql's
    /// own stdin (the pipe) while the script comes from a file.
    /// </summary>
    private static PeerDefinition PsqlPipe(string key, string name, string format) => new(
        key, name, $"psql \\copy to stdout ({format})", $"psql truncate + \\copy from stdin ({format}), one transaction", "psql",
        $"""psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -c '\copy {UsersTable.Name} ({UsersTable.Columns}) to pstdout (format {format})' | {TargetPsql}""",
        PeerScopes.TargetStatements)
    {
        Files = new Dictionary<string, string>
        {
            ["target.sql"] = TimedTransaction($"\\copy {UsersTable.Name} ({UsersTable.Columns}) from pstdin (format {format})"),
        },
    };

    /// <summary>
    /// The psql binary pipe with the manual's "Populating a Database" advice in the target's one transaction: drop the
    /// primary key, COPY with FREEZE (allowed because the table was truncated in this transaction), re-add the key
    /// with a large maintenance_work_mem. The key's name and definition are read from the catalog, not repeated here.
    /// </summary>
    private static PeerDefinition PsqlBinaryTuned() => new(
        PsqlBinaryTunedKey, "psql binary pipe, tuned", "psql \\copy to stdout (binary)",
        "psql truncate, drop primary key, maintenance_work_mem 1GB, \\copy from stdin (binary, freeze), re-add primary key, one transaction", "psql",
        $"{SourceCopyOutBinary}| {TargetPsql}", PeerScopes.TargetStatements)
    {
        Files = new Dictionary<string, string>
        {
            ["target.sql"] = TimedTransaction($"""
                select quote_ident(conname) as pk_name, pg_get_constraintdef(oid) as pk_definition
                from pg_constraint where conrelid = '{UsersTable.Name}'::regclass and contype = 'p' \gset
                alter table {UsersTable.Name} drop constraint :pk_name;
                set local maintenance_work_mem = '1GB';
                \copy {UsersTable.Name} ({UsersTable.Columns}) from pstdin (format binary, freeze)
                alter table {UsersTable.Name} add constraint :pk_name :pk_definition;
                """),
        },
    };

    /// <summary>
    /// pgcopydb 0.10 neither truncates (psql does it first, in the timed command) nor fails on a failed COPY (it
    /// exits 0; fixed in 0.11), so its log is scanned for errors. It also runs VACUUM ANALYZE on the target.
    /// Its time is the whole command's: the tool has no hook to read the target's clock around its statements.
    /// </summary>
    private static PeerDefinition Pgcopydb() => new(
        PgcopydbKey, "psql truncate, then pgcopydb copy table-data", "pgcopydb COPY TO",
        "psql truncate (own transaction), then pgcopydb COPY FROM + VACUUM ANALYZE", "pgcopydb",
        $"""psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -c 'truncate {UsersTable.Name}' """
        + """&& pgcopydb copy table-data --source "$SRC" --target "$TGT" --dir "$WORK/pgcopydb" --filters "$WORK/filters.ini" > "$WORK/pgcopydb.log" 2>&1""",
        PeerScopes.WholeCommand)
    {
        // pgcopydb copies every table of the source database; the filter keeps it to the one under test.
        Files = new Dictionary<string, string> { ["filters.ini"] = $"[include-only-table]\npublic.{UsersTable.Name}\n" },
        ErrorLog = "pgcopydb.log",
    };

    /// <summary>
    /// The target pulls the rows itself through postgres_fdw: truncate + INSERT … SELECT from a foreign table in one
    /// transaction. Server, user mapping and foreign table are set up untimed before each run and dropped after it.
    /// fetch_size 10000 (default 100): rows per FETCH from the source's cursor; at 100 a million rows take 10,000
    /// round trips.
    /// </summary>
    private static PeerDefinition PostgresFdw() => new(
        PostgresFdwKey, "postgres_fdw pull", "postgres_fdw cursor on the source (fetch_size 10000)",
        "truncate + INSERT … SELECT from the foreign table, one transaction", "psql",
        TargetPsql, PeerScopes.TargetStatements)
    {
        Files = new Dictionary<string, string>
        {
            ["setup.sql"] = $$"""
                \getenv src_host SRC_HOST
                \getenv src_port SRC_PORT
                \getenv src_db SRC_DB
                \getenv src_user SRC_USER
                \getenv src_password SRC_PASSWORD
                create extension if not exists postgres_fdw;
                drop schema if exists {{FdwSchema}} cascade;
                drop server if exists {{FdwServer}} cascade;
                create server {{FdwServer}} foreign data wrapper postgres_fdw
                    options (host :'src_host', port :'src_port', dbname :'src_db', fetch_size '10000');
                \if :{?src_password}
                create user mapping for current_user server {{FdwServer}} options (user :'src_user', password :'src_password');
                \else
                create user mapping for current_user server {{FdwServer}} options (user :'src_user');
                \endif
                create schema {{FdwSchema}};
                import foreign schema public limit to ({{UsersTable.Name}}) from server {{FdwServer}} into {{FdwSchema}};
                """,
            ["target.sql"] = TimedTransaction(
                $"insert into {UsersTable.Name} ({UsersTable.Columns}) select {UsersTable.Columns} from {FdwSchema}.{UsersTable.Name};"),
            ["teardown.sql"] = $"""
                drop schema if exists {FdwSchema} cascade;
                drop server if exists {FdwServer} cascade;
                """,
        },
        Setup = """psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/setup.sql" """,
        Teardown = """psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/teardown.sql" """,
    };

    private const string FdwServer = "syncdata_peer_source";
    private const string FdwSchema = "syncdata_peer_fdw";
    private const string Replication = "syncdata_peer";

    /// <summary>
    /// PostgreSQL's own initial table synchronisation: a publication on the source, a subscription with copy_data on
    /// the target, timed from the target's truncate until the table is synchronised. Both databases live in one
    /// cluster here, where CREATE SUBSCRIPTION cannot create its slot (it would wait for its own transaction), so the
    /// slot is created beforehand, untimed, and the subscription uses it (create_slot = false). Dropping the
    /// subscription drops the slot. Needs wal_level = logical.
    /// </summary>
    private static PeerDefinition LogicalReplication() => new(
        LogicalReplicationKey, "logical replication initial sync", "publication + logical slot (pgoutput) on the source",
        "truncate, CREATE SUBSCRIPTION (copy_data), wait until the table is synchronised", "psql",
        TargetPsql, PeerScopes.TargetStatements)
    {
        Files = new Dictionary<string, string>
        {
            ["target-clean.sql"] = $"drop subscription if exists {Replication};\n",
            ["source-setup.sql"] = $"""
                drop publication if exists {Replication};
                select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '{Replication}';
                create publication {Replication} for table {UsersTable.Name};
                select pg_create_logical_replication_slot('{Replication}', 'pgoutput');
                """,
            ["source-clean.sql"] = $"""
                drop publication if exists {Replication};
                select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '{Replication}';
                """,
            // Not one transaction: CREATE SUBSCRIPTION cannot run inside one. 's' (synchronised) or 'r' (ready)
            // means the table's copy is committed; a failed synchronisation retries forever, so its error count ends the wait.
            ["target.sql"] = $$"""
                \getenv src_conninfo SRC_CONNINFO
                {{ClockSql}}
                truncate {{UsersTable.Name}};
                create subscription {{Replication}} connection :'src_conninfo' publication {{Replication}}
                    with (create_slot = false, slot_name = '{{Replication}}', copy_data = true);
                do $$
                declare
                    deadline timestamptz := clock_timestamp() + interval '30 minutes';
                begin
                    loop
                        exit when exists (select from pg_subscription_rel r join pg_subscription s on s.oid = r.srsubid
                                          where s.subname = '{{Replication}}' and r.srrelid = '{{UsersTable.Name}}'::regclass and r.srsubstate in ('s', 'r'));
                        if exists (select from pg_stat_subscription_stats where subname = '{{Replication}}' and sync_error_count > 0) then
                            raise exception 'the initial table synchronisation failed (its error is in the server log)';
                        end if;
                        if clock_timestamp() > deadline then
                            raise exception 'the initial table synchronisation did not finish within 30 minutes';
                        end if;
                        perform pg_sleep(0.005);
                        -- Statistics are cached for the rest of the transaction unless cleared.
                        perform pg_stat_clear_snapshot();
                    end loop;
                end
                $$;
                {{ClockSql}}
                """,
        },
        Setup = """psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/target-clean.sql" && psql -X -q -At -v ON_ERROR_STOP=1 -d "$SRC" -f "$WORK/source-setup.sql" >/dev/null""",
        Teardown = """psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/target-clean.sql" && psql -X -q -At -v ON_ERROR_STOP=1 -d "$SRC" -f "$WORK/source-clean.sql" >/dev/null""",
    };

    /// <summary>The target's timed statements: clock, begin, truncate, <paramref name="load"/>, commit, clock.</summary>
    private static string TimedTransaction(string load) => $"""
        {ClockSql}
        begin;
        truncate {UsersTable.Name};
        {load}
        commit;
        {ClockSql}
        """;
}

/// <summary>
/// Runs one peer once: makes the target differ from the source (untimed), runs the peer's set-up, its timed script
/// and its tear-down, then checks the target against the source itself, independent of the tool's own report.
/// </summary>
public sealed partial class PeerRunner(string sourceConnection, string targetConnection, TableSummary sourceSummary)
{
    public async Task<PeerRun> RunAsync(PeerDefinition peer, int round, bool warmup, CancellationToken ct)
    {
        PeerRun Failed(string error, int? exitCode = null, double? ms = null, double? wallMs = null) => new()
        {
            Peer = peer.Key, Round = round, Warmup = warmup, Status = RunStatus.Failed, Error = error, ExitCode = exitCode,
            DurationMs = ms, WallMs = wallMs, Scope = peer.Scope,
        };

        if (ShellCommand.Which(peer.Tool) is null)
        {
            return Failed($"{peer.Tool} is not installed (Debian package {(peer.Tool == "psql" ? "postgresql-client" : peer.Tool)}; ./bench.sh installs it when run as root).");
        }

        var work = Directory.CreateTempSubdirectory("syncdata-peer-");
        try
        {
            // Whatever the previous case left, a peer that copies nothing must not verify.
            await Lab.MakeTargetDifferAsync(targetConnection, sourceSummary, ct);

            foreach (var (name, content) in peer.Files)
            {
                await File.WriteAllTextAsync(Path.Combine(work.FullName, name), content, ct);
            }

            var environment = Environment(work.FullName);
            if (peer.Setup is { } setup)
            {
                var prepared = await ShellCommand.RunAsync(setup, environment, work.FullName, ct);
                if (prepared.ExitCode != 0)
                {
                    await TeardownAsync(peer, environment, work.FullName);
                    return Failed($"{peer.Name}: set-up exited with {prepared.ExitCode}: {Tail(prepared.Output)}", prepared.ExitCode);
                }
            }

            ShellCommand.Outcome outcome;
            string? teardownError;
            try
            {
                outcome = await ShellCommand.RunAsync(peer.Script, environment, work.FullName, ct);
            }
            finally
            {
                teardownError = await TeardownAsync(peer, environment, work.FullName);
            }

            var wallMs = Math.Round(outcome.Elapsed.TotalMilliseconds, 1);
            if (outcome.ExitCode != 0)
            {
                return Failed($"{peer.Tool} exited with {outcome.ExitCode}: {Tail(outcome.Output)}", outcome.ExitCode, null, wallMs);
            }

            if (peer.ErrorLog is { } log && await ErrorLinesAsync(Path.Combine(work.FullName, log), ct) is { Count: > 0 } errors)
            {
                return Failed($"{peer.Tool} exited with 0 but its log reports errors: {string.Join(" | ", errors.Take(6))}", 0, null, wallMs);
            }

            if (teardownError is not null)
            {
                return Failed($"{peer.Name}: tear-down {teardownError}", 0, null, wallMs);
            }

            double ms;
            if (peer.Scope == PeerScopes.TargetStatements)
            {
                if (await ReadClockAsync(Path.Combine(work.FullName, PeerDefinition.ClockFile), ct) is not { } clockMs)
                {
                    return Failed($"{peer.Name} did not record the target's clock before its first statement and after its commit (expected two epoch lines in $WORK/{PeerDefinition.ClockFile}).", 0, null, wallMs);
                }

                ms = clockMs;
            }
            else
            {
                ms = wallMs;
            }

            var target = await Lab.ReadSummaryAsync(targetConnection, ct);
            var verified = target == sourceSummary;
            return new PeerRun
            {
                Peer = peer.Key,
                Round = round,
                Warmup = warmup,
                Status = verified ? RunStatus.Succeeded : RunStatus.Failed,
                DurationMs = ms,
                WallMs = wallMs,
                Scope = peer.Scope,
                Rows = target.Rows,
                Verified = verified,
                Target = target,
                ExitCode = 0,
                Error = verified ? null : $"Verification failed: source has {sourceSummary.Rows:N0} rows (checksum {sourceSummary.Checksum}), target has {target.Rows:N0} (checksum {target.Checksum}).",
            };
        }
        catch (NpgsqlException ex)
        {
            return Failed($"Could not prepare or verify the target: {ex.Message}");
        }
        finally
        {
            try
            {
                work.Delete(recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }

    /// <summary>Runs the peer's tear-down, never cancelled (it removes subscriptions and slots); returns its failure or null.</summary>
    private static async Task<string?> TeardownAsync(PeerDefinition peer, IReadOnlyDictionary<string, string> environment, string work)
    {
        if (peer.Teardown is not { } teardown)
        {
            return null;
        }

        var outcome = await ShellCommand.RunAsync(teardown, environment, work, CancellationToken.None);
        return outcome.ExitCode == 0 ? null : $"exited with {outcome.ExitCode}: {Tail(outcome.Output)}";
    }

    private Dictionary<string, string> Environment(string work)
    {
        var source = new NpgsqlConnectionStringBuilder(sourceConnection);
        var environment = new Dictionary<string, string>
        {
            ["SRC"] = PostgresUri.From(sourceConnection, out var password),
            ["TGT"] = PostgresUri.From(targetConnection, out _),
            ["WORK"] = work,
            ["SRC_HOST"] = source.Host ?? "localhost",
            ["SRC_PORT"] = source.Port.ToString(CultureInfo.InvariantCulture),
            ["SRC_DB"] = source.Database ?? "postgres",
            ["SRC_USER"] = source.Username ?? System.Environment.UserName,
            ["SRC_CONNINFO"] = PostgresUri.Conninfo(sourceConnection),
        };
        if (password is not null)
        {
            environment["PGPASSWORD"] = password;
            environment["SRC_PASSWORD"] = password;
        }

        return environment;
    }

    /// <summary>Milliseconds between the two epoch readings the target printed, or null if they are not there.</summary>
    internal static async Task<double?> ReadClockAsync(string path, CancellationToken ct)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        var readings = (await File.ReadAllLinesAsync(path, ct))
            .Select(l => double.TryParse(l.Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : (double?)null)
            .OfType<double>()
            .ToList();
        return readings.Count == 2 && readings[1] >= readings[0] ? Math.Round((readings[1] - readings[0]) * 1000, 1) : null;
    }

    /// <summary>Lines of a tool's log at level ERROR or FATAL (pgcopydb: "HH:MM:SS pid ERROR …").</summary>
    internal static async Task<List<string>> ErrorLinesAsync(string path, CancellationToken ct) =>
        File.Exists(path)
            ? (await File.ReadAllLinesAsync(path, ct)).Where(l => ErrorLine().IsMatch(l)).Select(l => l.Trim()).ToList()
            : [];

    [GeneratedRegex(@"^\S+\s+\d+\s+(ERROR|FATAL)\b")]
    private static partial Regex ErrorLine();

    private static string Tail(string output)
    {
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        return string.Join(" | ", lines.TakeLast(6)).Trim();
    }
}

/// <summary>Npgsql connection string → libpq URI, so psql and pgcopydb reach the very database the services use.</summary>
public static class PostgresUri
{
    public static string From(string npgsqlConnectionString, out string? password)
    {
        var b = new NpgsqlConnectionStringBuilder(npgsqlConnectionString);
        password = string.IsNullOrEmpty(b.Password) ? null : b.Password;
        var host = b.Host ?? "localhost";
        var query = new List<string>();
        string authority;
        if (host.StartsWith('/'))
        {
            // A Unix socket directory cannot be a URI authority; libpq takes it as the host parameter.
            authority = "";
            query.Add("host=" + Uri.EscapeDataString(host));
            query.Add("port=" + b.Port);
        }
        else
        {
            authority = (host.Contains(':') ? $"[{host}]" : host) + ":" + b.Port;
        }

        if (!string.IsNullOrEmpty(b.Username))
        {
            authority = Uri.EscapeDataString(b.Username) + "@" + authority;
        }

        if (SslMode(b) is { } sslMode)
        {
            query.Add("sslmode=" + sslMode);
        }

        var uri = $"postgresql://{authority}/{Uri.EscapeDataString(b.Database ?? "postgres")}";
        return query.Count == 0 ? uri : uri + "?" + string.Join('&', query);
    }

    /// <summary>
    /// A libpq keyword/value connection string, password included: for a server that connects to the source itself
    /// (a subscription), where no PGPASSWORD reaches it.
    /// </summary>
    public static string Conninfo(string npgsqlConnectionString)
    {
        var b = new NpgsqlConnectionStringBuilder(npgsqlConnectionString);
        var parts = new List<(string Key, string? Value)>
        {
            ("host", b.Host ?? "localhost"),
            ("port", b.Port.ToString(CultureInfo.InvariantCulture)),
            ("dbname", b.Database ?? "postgres"),
            ("user", b.Username),
            ("password", string.IsNullOrEmpty(b.Password) ? null : b.Password),
            ("sslmode", SslMode(b)),
        };
        var text = new StringBuilder();
        foreach (var (key, value) in parts.Where(p => p.Value is not null))
        {
            // libpq's quoting: single quotes around the value, backslash before ' and \.
            text.Append(text.Length == 0 ? "" : " ").Append(key).Append("='")
                .Append(value!.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "\\'", StringComparison.Ordinal)).Append('\'');
        }

        return text.ToString();
    }

    private static string? SslMode(NpgsqlConnectionStringBuilder b) => b.SslMode switch
    {
        Npgsql.SslMode.Disable => "disable",
        Npgsql.SslMode.Allow => "allow",
        Npgsql.SslMode.Require => "require",
        Npgsql.SslMode.VerifyCA => "verify-ca",
        Npgsql.SslMode.VerifyFull => "verify-full",
        _ => null,
    };
}
