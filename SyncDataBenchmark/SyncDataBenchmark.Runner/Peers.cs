using Npgsql;
using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A tool outside the lab that moves the same table between the same databases: the yardsticks. Scripts read the
/// databases from $SRC and $TGT (libpq URIs without the password, which travels as PGPASSWORD) and may use $WORK.
/// </summary>
public sealed record PeerDefinition(string Key, string Name, string FetchLabel, string InsertLabel, string Tool, string Script)
{
    public const string PsqlBinaryKey = "psql-binary";
    public const string PsqlTextKey = "psql-text";
    public const string PgcopydbKey = "pgcopydb";

    public static IReadOnlyList<PeerDefinition> All { get; } =
    [
        PsqlPipe(PsqlBinaryKey, "psql binary pipe", "binary"),
        PsqlPipe(PsqlTextKey, "psql text pipe", "text"),
        new(PgcopydbKey, "pgcopydb copy table-data", "pgcopydb COPY TO", "pgcopydb TRUNCATE + COPY FROM", "pgcopydb",
            """pgcopydb copy table-data --source "$SRC" --target "$TGT" --dir "$WORK/pgcopydb" --filters "$WORK/filters.ini" """),
    ];

    /// <summary>
    /// Two psql processes joined by a kernel pipe: the physical limit of moving the table through one stream.
    /// The target side truncates and copies in one transaction (-1), as SomeService does.
    /// </summary>
    private static PeerDefinition PsqlPipe(string key, string name, string format) => new(
        key, name, $"psql \\copy to stdout ({format})", $"psql truncate + \\copy from stdin ({format}), one transaction", "psql",
        $"""psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -c '\copy {UsersTable.Name} ({UsersTable.Columns}) to pstdout (format {format})' """
        + $"""| psql -X -q -v ON_ERROR_STOP=1 --single-transaction -d "$TGT" -c 'truncate {UsersTable.Name}' -c '\copy {UsersTable.Name} ({UsersTable.Columns}) from pstdin (format {format})'""");
}

/// <summary>Runs one peer once and checks the target against the source, independent of the tool's own report.</summary>
public sealed class PeerRunner(string sourceConnection, string targetConnection, TableSummary sourceSummary)
{
    public async Task<PeerRun> RunAsync(PeerDefinition peer, int round, bool warmup, CancellationToken ct)
    {
        PeerRun Failed(string error, int? exitCode = null, double? ms = null) => new()
        {
            Peer = peer.Key, Round = round, Warmup = warmup, Status = RunStatus.Failed, Error = error, ExitCode = exitCode, DurationMs = ms,
        };

        if (ShellCommand.Which(peer.Tool) is null)
        {
            return Failed($"{peer.Tool} is not installed (Debian package {(peer.Tool == "psql" ? "postgresql-client" : peer.Tool)}; ./bench.sh installs it when run as root).");
        }

        var work = Directory.CreateTempSubdirectory("syncdata-peer-");
        try
        {
            // pgcopydb copies every table of the source database; the filter keeps it to the one under test.
            await File.WriteAllTextAsync(Path.Combine(work.FullName, "filters.ini"), $"[include-only-table]\npublic.{UsersTable.Name}\n", ct);
            var environment = new Dictionary<string, string>
            {
                ["SRC"] = PostgresUri.From(sourceConnection, out var password),
                ["TGT"] = PostgresUri.From(targetConnection, out _),
                ["WORK"] = work.FullName,
            };
            if (password is not null)
            {
                environment["PGPASSWORD"] = password;
            }

            var outcome = await ShellCommand.RunAsync(peer.Script, environment, work.FullName, ct);
            var ms = Math.Round(outcome.Elapsed.TotalMilliseconds, 1);
            if (outcome.ExitCode != 0)
            {
                return Failed($"{peer.Tool} exited with {outcome.ExitCode}: {Tail(outcome.Output)}", outcome.ExitCode, ms);
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
                Rows = target.Rows,
                Verified = verified,
                Target = target,
                ExitCode = 0,
                Error = verified ? null : $"Verification failed: source has {sourceSummary.Rows:N0} rows (checksum {sourceSummary.Checksum}), target has {target.Rows:N0} (checksum {target.Checksum}).",
            };
        }
        catch (NpgsqlException ex)
        {
            return Failed($"Could not verify the target: {ex.Message}");
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

        var sslMode = b.SslMode switch
        {
            SslMode.Disable => "disable",
            SslMode.Allow => "allow",
            SslMode.Require => "require",
            SslMode.VerifyCA => "verify-ca",
            SslMode.VerifyFull => "verify-full",
            _ => null,
        };
        if (sslMode is not null)
        {
            query.Add("sslmode=" + sslMode);
        }

        var uri = $"postgresql://{authority}/{Uri.EscapeDataString(b.Database ?? "postgres")}";
        return query.Count == 0 ? uri : uri + "?" + string.Join('&', query);
    }
}
