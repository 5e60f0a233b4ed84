using SyncData.Harness.Network;

namespace SyncData.Harness;

/// <summary>
/// Where the lab's two databases are, as the runner and the tests reach them (seeding, planting, verifying) and as
/// each service and the peers reach them, and what the lab owns (clusters, network namespaces) to stop at the end.
/// Made by <see cref="OneHost"/>, <see cref="TwoHosts"/> or the runner's ExistingServer.
/// </summary>
public sealed record LabDatabases(string SourceDb, string TargetDb, PeerPlacement PeerPlacement) : IAsyncDisposable
{
    /// <summary>The databases as each service reaches its own (over TCP on its host); the runner's on one host.</summary>
    public string SourceServiceDb { get; init; } = SourceDb;
    public string TargetServiceDb { get; init; } = TargetDb;

    /// <summary>The two hosts of a shaped link (their counters, their fault); null on one host.</summary>
    public TwoHostLab? Network { get; init; }

    /// <summary>Where each service runs on a shaped link (its namespace, address, control socket); null: here, on loopback.</summary>
    public ServiceHost? SourceHost { get; init; }
    public ServiceHost? SomeServiceHost { get; init; }

    /// <summary>Server settings the lab set on its own clusters; empty for a user's server.</summary>
    public IReadOnlyDictionary<string, string> PostgresSettings { get; init; } = new Dictionary<string, string>();

    /// <summary>What the runner started, stopped in this order (the network last: nothing may still run inside it).</summary>
    public IReadOnlyList<IAsyncDisposable> Owned { get; init; } = [];

    public async ValueTask DisposeAsync() => await DisposeAllAsync([.. Owned]);

    public static async Task DisposeAllAsync(params IAsyncDisposable?[] parts)
    {
        foreach (var part in parts.OfType<IAsyncDisposable>())
        {
            await part.DisposeAsync();
        }
    }

    /// <summary>Where the runner's --tmpfs puts the clusters.</summary>
    public const string TmpfsDirectory = "/dev/shm";

    /// <summary>
    /// Always set on the lab's own clusters: the logical-replication peer needs logical decoding, and wal_level can
    /// only change at server start (README, "The peers"); --follow measures lag as the difference of the source's and
    /// the target's commit timestamps, which PostgreSQL keeps only with track_commit_timestamp (also set at start).
    /// </summary>
    public static IReadOnlyDictionary<string, string> LabPostgresSettings { get; } =
        new Dictionary<string, string> { ["wal_level"] = "logical", ["track_commit_timestamp"] = "on" };

    /// <summary>
    /// --tmpfs adds the sqlx write-up's finding: on a throwaway cluster durability costs dominate COPY; with these off
    /// the database stops being the bottleneck, so the services' own costs show.
    /// </summary>
    public static Dictionary<string, string> ServerSettings(bool tmpfs) =>
        LabPostgresSettings.Concat(tmpfs ? [new("fsync", "off"), new("synchronous_commit", "off"), new("full_page_writes", "off")] : [])
            .ToDictionary(s => s.Key, s => s.Value);
}
