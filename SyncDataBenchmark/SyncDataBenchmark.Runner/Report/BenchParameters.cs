using System.Text.Json.Serialization;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>What the session was asked to measure, and how.</summary>
public sealed record BenchParameters
{
    /// <summary>The largest size measured: the one the summary table and the per-case pictures describe.</summary>
    public required long Rows { get; init; }
    /// <summary>Every size measured, ascending (one for a classic run); each run records its own in sourceRows.</summary>
    public required IReadOnlyList<long> Sizes { get; init; }
    /// <summary>The cap on a run's predicted time in a sweep (--max-run-seconds); null: none.</summary>
    public double? MaxRunSeconds { get; init; }
    /// <summary>When the untimed warm-ups ran, in words.</summary>
    public string? WarmupPolicy { get; init; }
    /// <summary>Seeding time per size (null where an existing seed was reused).</summary>
    public required IReadOnlyDictionary<long, double?> SeedMsBySize { get; init; }
    /// <summary>The least timed runs per case (--repeat); records from before issue 52: the runs per case.</summary>
    public required int Repeat { get; init; }
    public required int Warmups { get; init; }
    /// <summary>The seed every round's order came from (--seed); null in records from before it (a fixed order).</summary>
    public int? Seed { get; init; }
    /// <summary>The most timed runs per case (--max-repeat); null in older records (exactly <see cref="Repeat"/>).</summary>
    public int? MaxRepeat { get; init; }
    /// <summary>The width a case's ratio interval was run down to, as a share of the ratio (--ci-width).</summary>
    public double? TargetWidth { get; init; }
    /// <summary>Seconds of timed runs a case could spend short of the width (--case-budget).</summary>
    public double? CaseBudgetSeconds { get; init; }
    /// <summary>A timed run that compiled longer than this in SomeService is flagged unsettled (--jit-threshold-ms).</summary>
    public double? JitThresholdMs { get; init; }
    /// <summary>The most warm-ups per case and service start (--max-warmup).</summary>
    public int? MaxWarmups { get; init; }
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
    /// <summary>The first table's (<see cref="Tables"/>); every run records its own table and what it found.</summary>
    public TableChecksum? SourceChecksum { get; init; }
    public required bool Peers { get; init; }
    /// <summary>The peers --peers selected; null: all (or none, with --no-peers).</summary>
    public IReadOnlyList<string>? PeerKeys { get; init; }
    public required bool Charts { get; init; }
    public required string SomeServiceUrl { get; init; }
    public string? SourceUrl { get; init; }
    /// <summary>False when --someservice-url/--source-url pointed at services someone else started.</summary>
    public required bool ServicesStartedByRunner { get; init; }
    /// <summary>The runtime profiles measured, in order; the first is the headline's.</summary>
    public required IReadOnlyList<ProfileReport> Profiles { get; init; }
    /// <summary>The cases measured under every profile after the first (--profile-cases).</summary>
    public required IReadOnlyList<string> ProfileCases { get; init; }
    /// <summary>The links measured across, in order (--link); the headline table is the first's.</summary>
    public required IReadOnlyList<NetworkLink> Links { get; init; }
    /// <summary>The content codings every case ran under (--compression), in order.</summary>
    public required IReadOnlyList<string> Compressions { get; init; }
    /// <summary>The tables every case and peer moved (--table), in order; null in records from before --table (users).</summary>
    public IReadOnlyList<string>? Tables { get; init; }

    /// <summary>--source-connection: the user's table, where it is and what was left out on it; null (absent) on the lab's own tables.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public OwnTableReport? OwnTable { get; init; }

    /// <summary>--changed: the shares changed before each run ("0.1%", "1%"), in order; null (absent) for runs into an emptied target.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<string>? Changed { get; init; }

    /// <summary>The headline's runtime profile: the runs' Profile of the summary table's main rows.</summary>
    [JsonIgnore]
    public string MainProfile => Profiles.First(p => p.Main).Name;
}
