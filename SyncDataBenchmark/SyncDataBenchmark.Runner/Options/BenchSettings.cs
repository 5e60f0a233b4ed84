using SyncData.Harness;

namespace SyncDataBenchmark.Runner;

/// <summary>What one invocation of the runner was asked to do, after parsing and validation.</summary>
public sealed record BenchSettings
{
    /// <summary>The sizes to measure, ascending: one is the classic run, several a sweep (README, "How it scales").</summary>
    public required IReadOnlyList<long> Sizes { get; init; }
    /// <summary>The largest size: the one the headline table and the per-case pictures describe.</summary>
    public long Rows => Sizes[^1];
    /// <summary>
    /// In a sweep, a case whose run at the next size is predicted (from the sizes it already ran at) to take longer
    /// than this is skipped there and at every larger size, and listed as skipped. Null: no cap.
    /// </summary>
    public double? MaxRunSeconds { get; init; } = DefaultMaxRunSeconds;
    public const double DefaultMaxRunSeconds = 900;
    public required int Repeat { get; init; }
    public required CaseSelection Cases { get; init; }
    /// <summary>Null: SomeService's own default.</summary>
    public int? PageSize { get; init; }
    /// <summary>Null: SomeService's own default.</summary>
    public int? BatchSize { get; init; }
    public required DirectoryInfo Out { get; init; }
    /// <summary>Base connection string of an existing server; null starts a throwaway local cluster.</summary>
    public string? Connection { get; init; }
    public Uri? SourceUrl { get; init; }
    public Uri? SomeServiceUrl { get; init; }
    public bool Tmpfs { get; init; }
    public bool Peers { get; init; } = true;
    /// <summary>The peers --peers selected, by key; null: all of them (when <see cref="Peers"/>).</summary>
    public IReadOnlyList<string>? PeerKeys { get; init; }

    /// <summary>Whether the peer with this key runs: peers on, and all of them or this one chosen.</summary>
    public bool RunsPeer(string key) => Peers && (PeerKeys?.Contains(key) ?? true);
    public bool Charts { get; init; } = true;
    /// <summary>The content codings every selected case runs under (--compression); each is its own row. Peers are not multiplied.</summary>
    public IReadOnlyList<string> Compressions { get; init; } = [SyncData.Shared.BodyCompression.None];

    /// <summary>--report-from: a directory whose results.json the reports are written again from; null: measure.</summary>
    public DirectoryInfo? ReportFrom { get; init; }

    /// <summary>The links to measure across, in order (--link); the first is the headline table's. Default: loopback only.</summary>
    public IReadOnlyList<NetworkLink> Links { get; init; } = [NetworkLink.Loopback];

    /// <summary>Runtime profiles to measure under, in order; the first is the headline's (README, "Measuring honestly").</summary>
    public IReadOnlyList<RuntimeProfile> Profiles { get; init; } = [RuntimeProfiles.Default];

    /// <summary>The cases measured under the profiles after the first (the first profile runs every selected case).</summary>
    public CaseSelection ProfileCases { get; init; } = CaseSelection.DefaultProfileCases;

    /// <summary>The profile every selected case and the peers run under; the report's headline table.</summary>
    public RuntimeProfile MainProfile => Profiles[0];

    /// <summary>
    /// --profile-cases when not given: the cases the issue asks to see under every profile (the COPY path, EF Core's
    /// typical write, and the bulk library). A name this build does not have is skipped, not an error.
    /// </summary>
    public const string DefaultProfileCasesText = "NpgsqlCopy:NpgsqlCopy,EFStream:EFTypical,NpgsqlCopy:EFBulk";

    /// <summary>Untimed runs per combination (and peer) before the timed ones, at the first size (--warmup).</summary>
    public int Warmups { get; init; } = 1;

    /// <summary>
    /// Warm-ups at the size with this index: the first size only, since the processes stay up and warm across sizes.
    /// With more than one profile the services restart for each profile at every size, so each size warms up again.
    /// </summary>
    public int WarmupsAt(int sizeIndex) => sizeIndex == 0 || Profiles.Count > 1 ? Warmups : 0;

    /// <summary>
    /// The sqlx write-up's finding: on a throwaway cluster, durability costs dominate COPY; with these off the
    /// database stops being the bottleneck, so the services' own costs show.
    /// </summary>
    public static IReadOnlyDictionary<string, string> TmpfsPostgresSettings { get; } = new Dictionary<string, string>
    {
        ["fsync"] = "off",
        ["synchronous_commit"] = "off",
        ["full_page_writes"] = "off",
    };

    public const string TmpfsDirectory = "/dev/shm";

    /// <summary>
    /// Always set on the runner's own cluster: the logical-replication peer needs logical decoding, and wal_level can
    /// only change at server start. It adds the information logical decoding needs to the WAL of every write
    /// (README, "The peers").
    /// </summary>
    public static IReadOnlyDictionary<string, string> LabPostgresSettings { get; } = new Dictionary<string, string>
    {
        ["wal_level"] = "logical",
    };
}
