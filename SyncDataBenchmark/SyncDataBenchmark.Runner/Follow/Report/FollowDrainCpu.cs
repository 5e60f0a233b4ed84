using SyncDataBenchmark.Runner.Report;
namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// The CPU (ms, user + system, /proc) spent from a drain's restart until the target caught up: each .NET service the
/// mechanism uses (null: it uses none, or the runner did not start it) and the cluster's processes (PostgresMs, over
/// <see cref="PostgresProcesses"/> of them); <see cref="Missing"/> says what could not be read.
/// </summary>
public sealed record FollowDrainCpu(double? SomeServiceMs, double? SyncDataSourceMs, double? PostgresMs, int PostgresProcesses, string? Missing)
{
    [System.Text.Json.Serialization.JsonIgnore]
    public double TotalMs => (SomeServiceMs ?? 0) + (SyncDataSourceMs ?? 0) + (PostgresMs ?? 0);
}
