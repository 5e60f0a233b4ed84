using System.Globalization;
using System.Text.RegularExpressions;
using Npgsql;
using SyncData.Harness;
using SyncData.Harness.Network;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Runs one peer once, moving <paramref name="table"/>: makes the target differ from the source (untimed), runs the peer's set-up, its timed script
/// and its tear-down, then checks the target against the source itself, independent of the tool's own report.
/// <paramref name="placement"/> says where the scripts run and what they connect to (default: here, the runner's own
/// connection strings); <paramref name="readCounters"/>, on a shaped link, reads the link's counters around the timed script.
/// </summary>
public sealed partial class PeerRunner(string sourceConnection, string targetConnection, SyncTable table, TableChecksum sourceSummary,
    PeerPlacement? placement = null, Func<CancellationToken, Task<LinkCounters?>>? readCounters = null)
{
    private readonly PeerPlacement _placement = placement ?? new PeerPlacement(null, sourceConnection, targetConnection);

    /// <summary>
    /// How each run's target is prepared after the peer's set-up, untimed (TargetPreparation); its source checksum is
    /// what the run is verified against. Default: emptied with a sentinel row, against <paramref name="sourceSummary"/>.
    /// </summary>
    public Func<CancellationToken, Task<TargetStart>> Start { get; init; } = ct => TargetPreparation.EmptyAsync(targetConnection, table, sourceSummary, ct);

    /// <summary>A peer's run that failed: why, and what is known of it.</summary>
    private sealed class PeerFailed(string error, int? exitCode = null, double? wallMs = null) : Exception(error)
    {
        public int? ExitCode { get; } = exitCode;
        public double? WallMs { get; } = wallMs;
    }

    public async Task<PeerRun> RunAsync(PeerDefinition template, int round, bool warmup, CancellationToken ct)
    {
        var peer = template.For(table);
        if (ShellCommand.Which(peer.Tool) is null)
        {
            return Failed(peer, round, warmup, new PeerFailed($"{peer.Tool} is not installed (Debian package {(peer.Tool == "psql" ? "postgresql-client" : peer.Tool)}; ./bench.sh installs it when run as root)."));
        }

        var work = Directory.CreateTempSubdirectory("syncdata-peer-");
        try
        {
            var (ms, wallMs, traffic, start) = await RunScriptsAsync(peer, work.FullName, ct);
            var target = await Lab.ReadChecksumAsync(targetConnection, table, ct);
            var source = start.Source;
            var verified = target == source;
            return new PeerRun
            {
                Peer = peer.Key, Table = table.Name, Round = round, Warmup = warmup, Scope = peer.Scope,
                Status = verified ? RunStatus.Succeeded : RunStatus.Failed,
                DurationMs = ms, WallMs = wallMs, Rows = target.Rows, Verified = verified, Target = target, ExitCode = 0, Traffic = traffic,
                Changed = start.Changed, ChangedShare = start.Share, Changes = start.Changes, TargetBefore = start.Target,
                Error = verified ? null : $"Verification failed: source has {source.Rows:N0} rows (checksum {source.Checksum}), target has {target.Rows:N0} (checksum {target.Checksum}).",
            };
        }
        catch (PeerFailed failed)
        {
            return Failed(peer, round, warmup, failed);
        }
        catch (Exception ex) when (ex is NpgsqlException or InvalidOperationException)
        {
            return Failed(peer, round, warmup, new PeerFailed($"Could not prepare or verify the target: {ex.Message}"));
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

    private PeerRun Failed(PeerDefinition peer, int round, bool warmup, PeerFailed failed) => new()
    {
        Peer = peer.Key, Table = table.Name, Round = round, Warmup = warmup, Status = RunStatus.Failed, Error = failed.Message, ExitCode = failed.ExitCode,
        WallMs = failed.WallMs, Scope = peer.Scope,
    };

    /// <summary>
    /// Files written, set-up, target made to differ, the timed script, tear-down; its time by its scope, its wall time,
    /// what crossed the link and where the run started from. The set-up comes before the target is prepared: a change
    /// peer's subscription must exist before the source changes (logical-replication-catchup).
    /// </summary>
    private async Task<(double Ms, double WallMs, LinkTraffic? Traffic, TargetStart Start)> RunScriptsAsync(PeerDefinition peer, string work, CancellationToken ct)
    {
        foreach (var (name, content) in peer.Files)
        {
            await File.WriteAllTextAsync(Path.Combine(work, name), content, ct);
        }

        var environment = Environment(work);
        if (peer.Setup is { } setup && await ShellCommand.RunAsync(setup, environment, work, _placement.Namespace, ct) is { ExitCode: not 0 } prepared)
        {
            await TeardownAsync(peer, environment, work);
            throw new PeerFailed($"{peer.Name}: set-up exited with {prepared.ExitCode}: {Tail(prepared.Output)}", prepared.ExitCode);
        }

        ShellCommand.Outcome outcome;
        string? teardownError;
        LinkTraffic? traffic;
        TargetStart start;
        try
        {
            // Whatever the previous case left, a peer that copies nothing must not verify.
            start = await Start(ct);
            var before = await ReadCountersAsync(ct);
            outcome = await ShellCommand.RunAsync(peer.Script, environment, work, _placement.Namespace, ct);
            traffic = LinkTrafficOf(before, await ReadCountersAsync(ct), start.Source.Rows);
        }
        finally
        {
            teardownError = await TeardownAsync(peer, environment, work);
        }

        var wallMs = Math.Round(outcome.Elapsed.TotalMilliseconds, 1);
        await CheckOutcomeAsync(peer, outcome, teardownError, work, wallMs, ct);
        if (peer.Scope != PeerScopes.TargetStatements)
        {
            return (wallMs, wallMs, traffic, start);
        }

        return await ReadClockAsync(Path.Combine(work, PeerDefinition.ClockFile), ct) is { } clockMs
            ? (clockMs, wallMs, traffic, start)
            : throw new PeerFailed($"{peer.Name} did not record the target's clock before its first statement and after its commit (expected two epoch lines in $WORK/{PeerDefinition.ClockFile}).", 0, wallMs);
    }

    /// <summary>A non-zero exit, errors in the tool's log or a failed tear-down fail the run.</summary>
    private static async Task CheckOutcomeAsync(PeerDefinition peer, ShellCommand.Outcome outcome, string? teardownError, string work, double wallMs, CancellationToken ct)
    {
        if (outcome.ExitCode != 0)
        {
            throw new PeerFailed($"{peer.Tool} exited with {outcome.ExitCode}: {Tail(outcome.Output)}", outcome.ExitCode, wallMs);
        }

        if (peer.ErrorLog is { } log && await ErrorLinesAsync(Path.Combine(work, log), ct) is { Count: > 0 } errors)
        {
            throw new PeerFailed($"{peer.Tool} exited with 0 but its log reports errors: {string.Join(" | ", errors.Take(6))}", 0, wallMs);
        }

        if (teardownError is not null)
        {
            throw new PeerFailed($"{peer.Name}: tear-down {teardownError}", 0, wallMs);
        }
    }

    private async Task<LinkCounters?> ReadCountersAsync(CancellationToken ct) => readCounters is null ? null : await readCounters(ct);

    /// <summary>What crossed the link between two readings of its counters, and per source row; null on loopback.</summary>
    public static LinkTraffic? LinkTrafficOf(LinkCounters? before, LinkCounters? after, long rows)
    {
        if (before is null || after is null)
        {
            return null;
        }

        var crossed = after.Since(before);
        return new LinkTraffic(crossed.SourceToTargetBytes, crossed.TargetToSourceBytes, rows > 0 ? Math.Round((double)crossed.TotalBytes / rows, 1) : null);
    }

    /// <summary>Runs the peer's tear-down, never cancelled (it removes subscriptions and slots); returns its failure or null.</summary>
    private async Task<string?> TeardownAsync(PeerDefinition peer, IReadOnlyDictionary<string, string> environment, string work)
    {
        if (peer.Teardown is not { } teardown)
        {
            return null;
        }

        var outcome = await ShellCommand.RunAsync(teardown, environment, work, _placement.Namespace, CancellationToken.None);
        return outcome.ExitCode == 0 ? null : $"exited with {outcome.ExitCode}: {Tail(outcome.Output)}";
    }

    private Dictionary<string, string> Environment(string work)
    {
        var linked = _placement.SourceConnection;
        var source = new NpgsqlConnectionStringBuilder(linked);
        var environment = new Dictionary<string, string>
        {
            ["SRC"] = Conninfo.From(linked, withPassword: false),
            ["TGT"] = Conninfo.From(_placement.TargetConnection, withPassword: false),
            ["WORK"] = work,
            ["SRC_HOST"] = source.Host ?? "localhost",
            ["SRC_PORT"] = source.Port.ToString(CultureInfo.InvariantCulture),
            ["SRC_DB"] = source.Database ?? "postgres",
            ["SRC_USER"] = source.Username ?? System.Environment.UserName,
            ["SRC_CONNINFO"] = Conninfo.From(linked, withPassword: true),
        };
        if (!string.IsNullOrEmpty(source.Password))
        {
            environment["PGPASSWORD"] = source.Password;
            environment["SRC_PASSWORD"] = source.Password;
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
