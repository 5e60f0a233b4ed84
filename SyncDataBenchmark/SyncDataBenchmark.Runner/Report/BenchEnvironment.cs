namespace SyncDataBenchmark.Runner.Report;

/// <summary>What the numbers were measured on (EnvironmentProbe).</summary>
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
