using SyncData.Harness;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// What one invocation of the runner was asked to do, after parsing and validation (BenchOptions). Every option's
/// default is declared here once (a Default* member or the property's initializer); BenchOptions reads it for both its
/// help text and the value it fills in.
/// </summary>
public sealed record BenchSettings
{
    /// <summary>The sizes to measure, ascending: one is the classic run, several a sweep (README, "How it scales").</summary>
    public required IReadOnlyList<long> Sizes { get; init; }
    /// <summary>In a sweep, a case predicted past this many seconds at the next size is skipped there and beyond (BenchPlan.SkipsAt); null: no cap.</summary>
    public double? MaxRunSeconds { get; init; } = DefaultMaxRunSeconds;
    public const double DefaultMaxRunSeconds = 900;
    /// <summary>
    /// The session's wall time (--budget), from the command's start: the plan fits its minimum in it, measuring the
    /// costliest cases once when it must (Budget.BudgetPlanner), and no round starts that would end past it. Default 75
    /// minutes: a full ./bench.sh on this 2-core machine (docs/running.md).
    /// </summary>
    public double BudgetSeconds { get; init; } = DefaultBudgetSeconds;
    public const double DefaultBudgetSeconds = 75 * 60;
    /// <summary>
    /// The least timed runs per case (--repeat): five, the fewest the test and an interval are computed from
    /// (RunStatistics.MinTestRuns). Given, it is also the most unless --max-repeat is: "--repeat 1" is one run. A case runs more until
    /// its ratio to the pipe is known within <see cref="TargetWidth"/>, its <see cref="CaseBudgetSeconds"/> are spent or
    /// it reached <see cref="MaxRepeat"/> (AdaptiveStop).
    /// </summary>
    public required int Repeat { get; init; }
    public const int DefaultRepeat = 5;
    /// <summary>The most timed runs per case (--max-repeat).</summary>
    public int MaxRepeat { get; init; } = DefaultMaxRepeat;
    public const int DefaultMaxRepeat = 20;
    /// <summary>
    /// A case stops once the 95% interval of its median/median ratio to the psql binary pipe is narrower than this share
    /// of the ratio (--ci-width), e.g. 0.10: 1.00× [0.95–1.05].
    /// </summary>
    public double TargetWidth { get; init; } = DefaultTargetWidth;
    public const double DefaultTargetWidth = 0.10;
    /// <summary>
    /// Seconds of timed runs (their own clock) a case may spend before it stops short of the width (--case-budget). The
    /// default keeps a full ./bench.sh here (2 cores, 1M rows, 40 combinations, 6 peers, 3 profiles) within about two hours: docs/running.md.
    /// </summary>
    public double CaseBudgetSeconds { get; init; } = DefaultCaseBudgetSeconds;
    public const double DefaultCaseBudgetSeconds = 30;
    /// <summary>The least untimed runs per case (and peer) after the services start, before the timed ones (--warmup).</summary>
    public int Warmups { get; init; } = DefaultWarmups;
    public const int DefaultWarmups = 1;
    /// <summary>
    /// A case warms up until a warm-up run compiled less than this (SomeService's JIT time over the run, --jit-threshold-ms)
    /// or <see cref="MaxWarmups"/> ran; a timed run that compiled more is flagged (CombinationRun.Unsettled).
    /// </summary>
    public double JitThresholdMs { get; init; } = DefaultJitThresholdMs;
    public const double DefaultJitThresholdMs = 10;
    /// <summary>
    /// The most warm-up runs per case and service start (--max-warmup); past <see cref="Warmups"/>, a case's warm-ups also
    /// stop once they took a third of its <see cref="CaseBudgetSeconds"/> (EF Core's SaveChanges, offset paging: one each).
    /// </summary>
    public int MaxWarmups { get; init; } = DefaultMaxWarmups;
    public const int DefaultMaxWarmups = 10;
    /// <summary>
    /// The seed of every round's order (--seed): the same seed, the same order. Default: a random one, printed and
    /// recorded in results.json.
    /// </summary>
    public int Seed { get; init; } = Random.Shared.Next();
    public required CaseSelection Cases { get; init; }
    /// <summary>Null: SomeService's own default.</summary>
    public int? PageSize { get; init; }
    /// <summary>Null: SomeService's own default.</summary>
    public int? BatchSize { get; init; }
    public required DirectoryInfo Out { get; init; }
    /// <summary>Base connection string of a user's server; null starts a throwaway local cluster.</summary>
    public string? Connection { get; init; }
    /// <summary>--source-connection: a user's database holding <see cref="OwnTable"/>, only read; null: the lab's own seeded tables.</summary>
    public string? SourceConnection { get; init; }

    /// <summary>--follow-install: the user opted in to a publication and a slot on their database for a --follow run (dropped on every exit path).</summary>
    public bool FollowInstall { get; init; }

    /// <summary>--follow-publication: the user's own publication to decode through; only the slot is made (and dropped).</summary>
    public string? FollowPublication { get; init; }

    /// <summary>A --follow run on the user's table, opted in to (<see cref="FollowInstall"/> or <see cref="FollowPublication"/>).</summary>
    public bool FollowsOwnTable => FollowSeconds is not null && SourceConnection is not null && (FollowInstall || FollowPublication is not null);
    /// <summary>The user's table as --table named it (schema.name, SQL's spelling); null without --source-connection.</summary>
    public string? OwnTable { get; init; }
    /// <summary>--source-connection: what the runner leaves out on the user's table and why (cases, merges, peers), one line each, for the record.</summary>
    public IReadOnlyList<string> OwnTableLeftOut { get; init; } = [];
    /// <summary>Whether --rows was given, which a user's table (moved whole) does not take: said at the start.</summary>
    public bool RowsGiven { get; init; }
    public Uri? SourceUrl { get; init; }
    public Uri? SomeServiceUrl { get; init; }
    public bool Tmpfs { get; init; }
    public bool Peers { get; init; } = true;
    /// <summary>The peers --peers selected, by key; null: all of them (when <see cref="Peers"/>).</summary>
    public IReadOnlyList<string>? PeerKeys { get; init; }
    public bool Charts { get; init; } = true;
    /// <summary>Whether a seed whose estimated size exceeds the local cluster's free disk is refused (SizeCheck); --no-size-check turns it off.</summary>
    public bool SizeCheck { get; init; } = true;
    /// <summary>The content codings every selected case runs under (--compression); each is its own row. Peers are not multiplied.</summary>
    public IReadOnlyList<string> Compressions { get; init; } = DefaultCompressions;
    public static IReadOnlyList<string> DefaultCompressions { get; } = [SyncData.Shared.BodyCompression.None];
    /// <summary>The tables every case and peer moves (--table), in order; the source holds each at every size.</summary>
    public IReadOnlyList<SyncTable> Tables { get; init; } = DefaultTables;
    public static IReadOnlyList<SyncTable> DefaultTables { get; } = [SyncTable.Default];
    /// <summary>--report-from: a directory whose results.json the reports are written again from; null: measure.</summary>
    public DirectoryInfo? ReportFrom { get; init; }
    /// <summary>--readme: a page whose generated blocks are rendered again from the records they name; null: none.</summary>
    public FileInfo? Readme { get; init; }
    /// <summary>
    /// --changed: the shares of the source's rows changed before each run, ascending; null: the classic runs into an
    /// emptied target. With shares the plan holds the merge cases beside the reloads, and the change peers.
    /// </summary>
    public IReadOnlyList<double>? Changed { get; init; }
    /// <summary>The plan's shares: each changed share, or the one "no share" of the classic runs.</summary>
    public IReadOnlyList<double?> Shares => Changed is { } shares ? [.. shares.Select(s => (double?)s)] : [null];
    /// <summary>--follow: seconds of write load per run of the follow matrix; null: the copy-once runs (docs/replication.md).</summary>
    public double? FollowSeconds { get; init; }
    /// <summary>--outage: seconds each follow run's mechanism stops applying after its catch-up, the load going on; null: no outage.</summary>
    public double? OutageSeconds { get; init; }
    /// <summary>--drain: the backlog (changes) each follow run's mechanism drains after its catch-up, its capacity measured.</summary>
    public long DrainChanges { get; init; } = DefaultDrainChanges;
    public const long DefaultDrainChanges = 200_000;
    /// <summary>--write-rate: the source's write rates (rows/s) of the follow matrix, in the order given.</summary>
    public IReadOnlyList<long> WriteRates { get; init; } = DefaultWriteRates;
    public static IReadOnlyList<long> DefaultWriteRates { get; } = [100, 1_000, 10_000];

    /// <summary>The links to measure across, in order (--link); the first is the headline table's.</summary>
    public IReadOnlyList<NetworkLink> Links { get; init; } = DefaultLinks;
    public static IReadOnlyList<NetworkLink> DefaultLinks { get; } = [NetworkLink.Loopback];
    /// <summary>
    /// Runtime profiles to measure under, in order; the first is the headline's (README, "Measuring honestly"). No
    /// initializer: the default depends on the other options (<see cref="DefaultProfileNames"/>, BenchOptions).
    /// </summary>
    public required IReadOnlyList<RuntimeProfile> Profiles { get; init; }
    /// <summary>The profiles measured when --profile is not given; a sweep or someone else's services measure the first alone.</summary>
    public static IReadOnlyList<string> DefaultProfileNames { get; } = [RuntimeProfiles.DefaultName, RuntimeProfiles.WorkstationName, RuntimeProfiles.TunedName];
    /// <summary>The cases measured under the profiles after the first (the first profile runs every selected case).</summary>
    public CaseSelection ProfileCases { get; init; } = CaseSelection.DefaultProfileCases;

    /// <summary>The profile every selected case and the peers run under; the report's headline table.</summary>
    public RuntimeProfile MainProfile => Profiles[0];

    /// <summary>Whether the peer with this key runs: peers on, and all of them or this one chosen.</summary>
    /// <summary>Without --peers: with --changed the change peers and the psql binary pipe (a reload, the yardstick), else every peer that fills an empty target.</summary>
    public bool RunsPeer(string key) => Peers && (PeerKeys?.Contains(key)
        ?? (Changed is null ? PeerDefinition.Find(key) is { Changes: false } : PeerDefinition.Find(key) is { Changes: true } || key == PeerDefinition.PsqlBinaryKey));

    /// <summary>--profile-cases when not given: the COPY path, EF Core's typical write and the bulk library.</summary>
    public const string DefaultProfileCasesText = "NpgsqlCopy:NpgsqlCopy,EFStream:EFTypical,NpgsqlCopy:EFBulk";
}
