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

    /// <summary>
    /// The source is a user's database, followed by opt-in (--follow-install, --follow-publication): the lab writes
    /// nothing there (no pgbench load, drain or outage), reads no WAL of it, and follows its own traffic.
    /// </summary>
    public bool UsersDatabase { get; init; }

    /// <summary>
    /// The connection that drops what a mechanism made on the source, as a last resort after its own drop: the lab's
    /// source, or on a user's database their role's connection without read only (a read-only one cannot drop a slot's publication).
    /// </summary>
    public string DropsOn { get => _dropsOn ?? SourceDb; init => _dropsOn = value; }

    private readonly string? _dropsOn;

    /// <summary>The user's publication to decode through (--follow-publication); null: the mechanism makes its own.</summary>
    public string? Publication { get; init; }

    public int? SomeServicePid { get; init; }
    public int? SyncDataSourcePid { get; init; }

    /// <summary><paramref name="connectionString"/> with the runner's application name.</summary>
    public static string AsRunner(string connectionString) =>
        new NpgsqlConnectionStringBuilder(connectionString) { ApplicationName = RunnerApplication }.ConnectionString;
}
