using System.Text.Json;
using System.Text.Json.Serialization;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>results.json: everything the runner measured and where; the markdown, CSV and pictures derive from it.</summary>
public sealed record BenchReport
{
    /// <summary>False while the runner is still going (the file is rewritten after every run) or when it was stopped.</summary>
    public required bool Complete { get; init; }
    /// <summary>Every run (warm-ups included) succeeded and verified, and nothing else went wrong.</summary>
    public required bool Passed { get; init; }
    public required BenchEnvironment Environment { get; init; }
    public required BenchParameters Parameters { get; init; }
    public required IReadOnlyList<CaseSummary> Summary { get; init; }
    public required IReadOnlyList<CombinationRun> Runs { get; init; }
    public required IReadOnlyList<PeerRun> Peers { get; init; }
    /// <summary>Failures outside any single run (charts, service restarts), in words.</summary>
    public required IReadOnlyList<string> Problems { get; init; }
    /// <summary>Per case, its figures at every size measured and the fitted exponents (a single size has none).</summary>
    public IReadOnlyList<CaseGrowth> Growth { get; init; } = [];
    /// <summary>Cases a sweep did not run at some size: predicted past --max-run-seconds.</summary>
    public IReadOnlyList<SkippedCase> Skipped { get; init; } = [];
    /// <summary>Per link measured (--link; empty when only loopback was, and in a record from before --link), its cases at the headline size.</summary>
    public IReadOnlyList<LinkSummary> Links { get; init => field = value ?? []; } = [];
    /// <summary>Peers the server cannot run (PeerDefinition.Precondition), with why and what to change; none in a record from before them.</summary>
    public IReadOnlyList<SkippedPeer> SkippedPeers { get; init => field = value ?? []; } = [];
}

/// <summary>One link's table: its rate (null: loopback) and every case's row measured across it.</summary>
public sealed record LinkSummary(string Link, long? RateBitsPerSecond, IReadOnlyList<CaseSummary> Cases);

/// <summary>
/// The bytes that crossed a shaped link during one run or peer, each way (the source host's veth counters read before
/// and after), and per source row. Loopback runs have none.
/// </summary>
public sealed record LinkTraffic(long SourceToTargetBytes, long TargetToSourceBytes, double? BytesPerRow)
{
    public long TotalBytes => SourceToTargetBytes + TargetToSourceBytes;
}

public sealed record BenchEnvironment
{
    public required string CpuModel { get; init; }
    public required int Cores { get; init; }
    public required long MemoryBytes { get; init; }
    public required string Os { get; init; }
    public required string Kernel { get; init; }
    public required string DotnetRuntime { get; init; }
    public required string PostgresVersion { get; init; }
    /// <summary>Every PackageVersion in Directory.Packages.props.</summary>
    public required IReadOnlyDictionary<string, string> NuGetPackages { get; init; }
    /// <summary>Versions of the external tools used (psql, pgcopydb, matplotlib), or why they are missing.</summary>
    public required IReadOnlyDictionary<string, string> Tools { get; init; }
    public string? GitCommit { get; init; }
    /// <summary>The work tree had uncommitted changes: the commit alone does not reproduce the build.</summary>
    public bool? GitDirty { get; init; }
    public required DateTimeOffset StartedAt { get; init; }
    public DateTimeOffset? FinishedAt { get; init; }
    public double? WallTimeMs { get; init; }
}

public sealed record BenchParameters
{
    /// <summary>The largest size: the one the summary table and the per-case pictures describe.</summary>
    public required long Rows { get; init; }
    /// <summary>Every size measured, ascending (one for a classic run); each run records its own in sourceRows.</summary>
    public IReadOnlyList<long> Sizes { get; init; } = [];
    /// <summary>The cap on a run's predicted time in a sweep (--max-run-seconds); null: none.</summary>
    public double? MaxRunSeconds { get; init; }
    /// <summary>When the untimed warm-ups ran, in words.</summary>
    public string? WarmupPolicy { get; init; }
    /// <summary>Seeding time per size (null where an existing seed was reused).</summary>
    public IReadOnlyDictionary<long, double?> SeedMsBySize { get; init; } = new Dictionary<long, double?>();
    public required int Repeat { get; init; }
    public required int Warmups { get; init; }
    /// <summary>As asked; null means SomeService's default (the runs record what was used).</summary>
    public int? PageSize { get; init; }
    public int? BatchSize { get; init; }
    public required IReadOnlyList<string> Cases { get; init; }
    public required bool Tmpfs { get; init; }
    /// <summary>Server settings the runner set on its own cluster (wal_level=logical, plus the tmpfs ones); empty for an existing server.</summary>
    public required IReadOnlyDictionary<string, string> PostgresSettings { get; init; }
    /// <summary>"local" (throwaway cluster started by the runner) or "existing" (--connection).</summary>
    public required string Database { get; init; }
    public required bool SeedReused { get; init; }
    public double? SeedMs { get; init; }
    public TableChecksum? SourceSummary { get; init; }
    public required bool Peers { get; init; }
    /// <summary>The peers --peers selected; null: all (or none, with --no-peers). Absent from records before it existed.</summary>
    public IReadOnlyList<string>? PeerKeys { get; init; }
    public required bool Charts { get; init; }
    public required string SomeServiceUrl { get; init; }
    public string? SourceUrl { get; init; }
    /// <summary>False when --someservice-url/--source-url pointed at services someone else started.</summary>
    public required bool ServicesStartedByRunner { get; init; }
    /// <summary>The runtime profiles measured, in order; the first is the headline's.</summary>
    public IReadOnlyList<ProfileReport> Profiles { get; init; } = [];
    /// <summary>The cases measured under every profile after the first (--profile-cases).</summary>
    public IReadOnlyList<string> ProfileCases { get; init; } = [];
    /// <summary>The links measured across, in order (--link); the headline table is the first's. Loopback in a record from before --link.</summary>
    public IReadOnlyList<NetworkLink> Links { get; init => field = value ?? [NetworkLink.Loopback]; } = [NetworkLink.Loopback];
    /// <summary>The content codings every case ran under (--compression).</summary>
    public IReadOnlyList<string> Compressions { get; init; } = [SyncData.Shared.BodyCompression.None];
}

/// <summary>A runtime profile as asked (its environment variables) and as the services reported it.</summary>
public sealed record ProfileReport(string Name, string Description, IReadOnlyDictionary<string, string> Environment, bool Main);

/// <summary>One request to SomeService's /sync?wait=true, and what it answered.</summary>
public sealed record CombinationRun
{
    public required int Number { get; init; }
    public required string Case { get; init; }
    public required string Fetch { get; init; }
    public required string Insert { get; init; }
    /// <summary>
    /// The content coding the run asked for (--compression); the result's WireBytes and BodyBytes show what it did.
    /// Records from before it read as none (RunResult.Compression says why the getter does it).
    /// </summary>
    public string Compression { get => field ?? SyncData.Shared.BodyCompression.None; init; } = SyncData.Shared.BodyCompression.None;
    /// <summary>0 is a warm-up round (there may be several, --warmup); 1..repeat are timed.</summary>
    public required int Round { get; init; }
    public required bool Warmup { get; init; }
    /// <summary>Rows in the source when this run ran (the sweep's size).</summary>
    public long? SourceRows { get; init; }
    /// <summary>The runtime profile the runner started both services with ("external" for services it did not start).</summary>
    public string Profile { get; init; } = SyncData.Harness.RuntimeProfiles.DefaultName;
    /// <summary>The link between the two hosts this run crossed (--link); a record from before --link reads as loopback.</summary>
    public string Link { get; init => field = value ?? NetworkLink.LoopbackName; } = NetworkLink.LoopbackName;
    /// <summary>What crossed a shaped link during the run; null on loopback.</summary>
    public LinkTraffic? Traffic { get; init; }
    /// <summary>Seen from the runner: the HTTP request's whole duration (includes the in-transaction verification).</summary>
    public required double WallMs { get; init; }
    public int? HttpStatus { get; init; }
    /// <summary>Why there is no usable result (transport, HTTP status, or the run's own error).</summary>
    public string? Error { get; init; }
    /// <summary>
    /// The RunResult as SomeService returned it; in results.json, samples are kept only for the run each picture
    /// shows (thinned to a few hundred points), so the file stays small.
    /// </summary>
    public RunResult? Result { get; init; }
    /// <summary>The runner's own check after the run: the target read directly equals the source (count and checksum).</summary>
    public bool? RunnerVerified { get; init; }
    /// <summary>The target's summary as the runner read it after the run.</summary>
    public TableChecksum? RunnerTarget { get; init; }

    /// <summary>Both verdicts must hold: the service's (inside its transaction) and the runner's (after the commit).</summary>
    public bool Ok => Result is { Status: RunStatus.Succeeded, Verified: true } && RunnerVerified == true;
}

/// <summary>One run of an external tool moving the same table, verified the same way.</summary>
public sealed record PeerRun
{
    public required string Peer { get; init; }
    public required int Round { get; init; }
    public required bool Warmup { get; init; }
    /// <summary>Rows in the source when this run ran (the sweep's size).</summary>
    public long? SourceRows { get; init; }
    /// <summary>The link between the two hosts this peer crossed (--link); a record from before --link reads as loopback.</summary>
    public string Link { get; init => field = value ?? NetworkLink.LoopbackName; } = NetworkLink.LoopbackName;
    /// <summary>What crossed a shaped link during the peer's timed script; null on loopback.</summary>
    public LinkTraffic? Traffic { get; init; }
    public required string Status { get; init; }
    /// <summary>
    /// The peer's time at <see cref="Scope"/>: "target-statements" is the target's own clock from right before its
    /// truncate to right after its commit (SomeService's durationMs covers the same); "whole-command" is
    /// <see cref="WallMs"/>. The verification query is excluded either way.
    /// </summary>
    public double? DurationMs { get; init; }
    /// <summary>Which time <see cref="DurationMs"/> is: "target-statements" or "whole-command" (PeerScopes).</summary>
    public required string Scope { get; init; }
    /// <summary>Wall time of the whole timed command (process starts and connections included); set-up and tear-down excluded.</summary>
    public double? WallMs { get; init; }
    public long Rows { get; init; }
    /// <summary>Target count and checksum equal the source's, read directly after the command.</summary>
    public bool Verified { get; init; }
    public TableChecksum? Target { get; init; }
    public int? ExitCode { get; init; }
    public string? Error { get; init; }

    public bool Ok => Status == RunStatus.Succeeded && Verified;
}

/// <summary>Medians over a case's successful timed runs, per run (the original summed over its runs).</summary>
/// <param name="AllocatedBytes">Median over the runs whose allocation figure is exact; null when none is.</param>
/// <param name="AllocatedRuns">How many runs <paramref name="AllocatedBytes"/> is the median of.</param>
/// <param name="Runs">How many runs the other medians are over.</param>
/// <param name="AllocatedBytesUnavailable">Why some or all runs have no allocation figure (ServiceFigures.AllocatedBytesUnavailable).</param>
/// <param name="Runtime">The runtime settings the service reported (the last run's).</param>
/// <param name="AllocationTickBytes">Median of the runs' tick sums (ServiceFigures.AllocationTickBytes); null when no run has one.</param>
/// <param name="AllocationTickRuns">How many runs <paramref name="AllocationTickBytes"/> is the median of.</param>
/// <param name="AllocationTickUnavailable">Why some or all runs have no tick sum.</param>
public sealed record FigureMedians(
    double? AllocatedBytes,
    double PeakWorkingSetBytes,
    double GcGen0,
    double GcGen1,
    double GcGen2,
    double GcPauseMs,
    int AllocatedRuns = 0,
    int Runs = 0,
    string? AllocatedBytesUnavailable = null,
    RuntimeSettings? Runtime = null,
    double? CpuTimeMs = null,
    double? AllocationTickBytes = null,
    int AllocationTickRuns = 0,
    string? AllocationTickUnavailable = null,
    double? JitTimeMs = null)
{
    /// <summary>
    /// The figure the tables show: GC.GetTotalAllocatedBytes's median when every run has it, else the tick sums'
    /// median (<see cref="FromTicks"/>), else the partial exact median; null when no run has either.
    /// </summary>
    public double? ShownAllocatedBytes => FromTicks ? AllocationTickBytes : AllocatedBytes;

    /// <summary>The shown allocation is the tick sums' (GetTotalAllocatedBytes is missing in some run and the ticks cover more runs).</summary>
    public bool FromTicks => AllocatedRuns < Runs && AllocationTickRuns > AllocatedRuns;
}

/// <summary>One row of results.md.</summary>
public sealed record CaseSummary
{
    public static class Kinds
    {
        public const string Combination = "combination";
        public const string Peer = "peer";
    }

    public required string Kind { get; init; }
    public required string Case { get; init; }
    /// <summary>The runtime profile of the rows's runs; the peers carry the main profile's.</summary>
    public string Profile { get; init; } = SyncData.Harness.RuntimeProfiles.DefaultName;
    /// <summary>True for the main profile's rows (the headline table); false for the profile comparison.</summary>
    public bool MainProfile { get; init; } = true;
    public int? Number { get; init; }
    public required string Title { get; init; }
    public required string Fetch { get; init; }
    public required string Insert { get; init; }
    /// <summary>1 = fastest best time among the combinations (peers are not ranked).</summary>
    public int? Rank { get; init; }
    public int TimedRuns { get; init; }
    public int Succeeded { get; init; }
    public int Failures { get; init; }
    public bool WarmupFailed { get; init; }
    public double? BestMs { get; init; }
    public double? MedianMs { get; init; }
    /// <summary>Sample standard deviation of the successful timed runs; null with fewer than two.</summary>
    public double? StdDevMs { get; init; }
    public double? RatioToFastest { get; init; }
    /// <summary>Best time divided by the psql binary pipe's best at the same <see cref="Scope"/>.</summary>
    public double? RatioToPsqlBinary { get; init; }
    /// <summary>What BestMs measures: "target-statements" (combinations and most peers) or "whole-command".</summary>
    public string? Scope { get; init; }
    /// <summary>Peers: best whole-command wall time of the successful timed runs.</summary>
    public double? BestWallMs { get; init; }
    /// <summary>The run whose samples the picture shows: the best successful one, else the last one with samples.</summary>
    public Guid? PictureRunId { get; init; }
    public string? Picture { get; init; }
    public FigureMedians? SomeService { get; init; }
    public FigureMedians? SyncDataSource { get; init; }
    /// <summary>What crossed the link during the best successful timed run (shaped links only).</summary>
    public LinkTraffic? Traffic { get; init; }
    /// <summary>Combinations: the content coding of the row's runs (--compression); peers and older records: none.</summary>
    public string Compression { get => field ?? SyncData.Shared.BodyCompression.None; init; } = SyncData.Shared.BodyCompression.None;
    /// <summary>Median over the successful timed runs of the fetch bodies' bytes on the wire per row moved.</summary>
    public double? WireBytesPerRow { get; init; }
    /// <summary>The same decoded: what the consumer parsed or relayed per row.</summary>
    public double? BodyBytesPerRow { get; init; }
}

// Not indented: results.json is committed after every full run, and indentation tripled its size.
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, UseStringEnumConverter = true, WriteIndented = false,
    DefaultIgnoreCondition = JsonIgnoreCondition.Never)]
[JsonSerializable(typeof(BenchReport))]
internal sealed partial class BenchJsonContext : JsonSerializerContext;

/// <summary>A peer left out of the session because the server cannot run it: why, and what to change.</summary>
public sealed record SkippedPeer(string Peer, string Title, string Reason);
