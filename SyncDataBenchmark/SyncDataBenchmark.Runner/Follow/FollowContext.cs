using Npgsql;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// What a follow mechanism reaches: the lab's two databases (the runner's connections named <see cref="RunnerApplication"/>,
/// so the drain's CPU leaves its own queries out), SomeService, the follower's batch (--batch-size, or SomeService's
/// default), and the services' pids when the runner started them (the drain's CPU, /proc).
/// </summary>
public sealed record FollowContext(string SourceDb, string TargetDb, HttpClient SomeService, int? Batch)
{
    /// <summary>The application_name of the runner's own connections.</summary>
    public const string RunnerApplication = "syncdata-follow-runner";

    public int? SomeServicePid { get; init; }
    public int? SyncDataSourcePid { get; init; }

    /// <summary><paramref name="connectionString"/> with the runner's application name.</summary>
    public static string AsRunner(string connectionString) =>
        new NpgsqlConnectionStringBuilder(connectionString) { ApplicationName = RunnerApplication }.ConnectionString;
}
