using System.Diagnostics;
using SyncData.Harness;
using SyncData.Harness.Network;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// What a session runs against across one link: the two databases (<see cref="LabDatabases"/>: one host, two hosts
/// or a user's server), the seeded source, and the two services (<see cref="ILabServices"/>: started by the runner,
/// or a user's), built from the options out of the harness's parts the test fixtures set up their labs with.
/// </summary>
public sealed class BenchLab : IAsyncDisposable
{
    /// <summary>The profile label of runs against services the runner did not start.</summary>
    public const string ExternalProfile = "external";

    private bool _disposed;

    private BenchLab(LabDatabases databases, NetworkLink link) => (Databases, Link) = (databases, link);

    public LabDatabases Databases { get; }
    public ILabServices Services { get; private set; } = null!;

    public string SourceDb => Databases.SourceDb;
    public string TargetDb => Databases.TargetDb;
    public NetworkLink Link { get; }
    public IReadOnlyDictionary<string, string> PostgresSettings => Databases.PostgresSettings;
    public bool ServicesStartedByRunner => Services.StartedByRunner;
    public string SomeServiceAddress => Services.SomeServiceAddress;
    public Uri? SourceUrl => Services.SourceUrl;

    public string PostgresVersion { get; private set; } = "";
    public bool SeedReused { get; private set; }
    public double? SeedMs { get; private set; }
    public TableChecksum SourceChecksum { get; private set; } = null!;

    /// <summary>The lab of <paramref name="link"/>: its databases, the first size seeded, the services up under the first profile.</summary>
    public static async Task<BenchLab> StartAsync(BenchSettings settings, NetworkLink link, Action<string> say, CancellationToken ct)
    {
        // What a killed earlier run (or test run) left behind would compete for the same two cores.
        LabSweeper.Sweep();
        var databases = link.Shaped ? await TwoHosts.StartAsync(link.Name, link.RateBitsPerSecond!.Value, settings.Tmpfs, say, ct)
            : settings.Connection is { } connection ? await UserServer.OpenAsync(connection, say, ct)
            : await OneHost.StartAsync(settings.Tmpfs, say, ct);
        var lab = new BenchLab(databases, link);
        try
        {
            await lab.PrepareDataAsync(settings.Sizes[0], say, ct);
            lab.Services = settings.SomeServiceUrl is { } someService
                ? await UserServices.CheckAsync(someService, settings.SourceUrl, say, ct)
                : await new StartedServices(databases, settings.SourceUrl, settings.MainProfile).StartAsync(say, ct);
            return lab;
        }
        catch
        {
            await lab.DisposeAsync();
            throw;
        }
    }

    /// <summary>Schema on both sides, and the source seeded with <paramref name="rows"/> rows unless it holds exactly that many.</summary>
    public async Task PrepareDataAsync(long rows, Action<string> say, CancellationToken ct)
    {
        await Lab.PrepareDatabasesAsync(SourceDb, TargetDb, seedRows: 0, ct);
        PostgresVersion = (string)(await Lab.ScalarAsync(SourceDb, "show server_version", ct))!;
        SeedReused = (long)(await Lab.ScalarAsync(SourceDb, $"select count(*) from {UsersTable.Name}", ct))! == rows;
        if (SeedReused)
        {
            say($"Reusing the existing seed of {rows:N0} rows in '{Lab.SourceDatabase}'.");
        }
        else
        {
            say($"Seeding {rows:N0} rows into '{Lab.SourceDatabase}' (sql/generate.sql)…");
            var clock = Stopwatch.StartNew();
            await SqlScripts.SeedAsync(SourceDb, rows, ct);
            SeedMs = Math.Round(clock.Elapsed.TotalMilliseconds, 1);
            say($"Seeded in {clock.Elapsed.TotalSeconds:F1} s.");
        }

        SourceChecksum = await Lab.ReadChecksumAsync(SourceDb, ct);
        if (SourceChecksum.Rows != rows)
        {
            throw new InvalidOperationException($"The source holds {SourceChecksum.Rows:N0} rows after seeding, not {rows:N0}.");
        }
    }

    /// <summary>The bytes crossed so far, each way; null on one host.</summary>
    public async Task<LinkCounters?> ReadLinkCountersAsync(CancellationToken ct) =>
        Databases.Network is { } network ? await network.ReadCountersAsync(ct) : null;

    /// <summary>A peer runner for the current seed: it verifies against the source's checksum.</summary>
    public PeerRunner Peers() => new(SourceDb, TargetDb, SourceChecksum, Databases.PeerPlacement, ReadLinkCountersAsync);

    /// <summary>Stops the services, then the clusters, then the network: each part once.</summary>
    public async ValueTask DisposeAsync()
    {
        if (!_disposed)
        {
            _disposed = true;
            await LabDatabases.DisposeAllAsync(Services, Databases);
        }
    }
}
