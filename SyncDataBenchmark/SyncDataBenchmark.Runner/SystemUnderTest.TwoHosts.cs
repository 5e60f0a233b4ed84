using SyncData.Harness;
using SyncData.Harness.Network;

namespace SyncDataBenchmark.Runner;

public sealed partial class SystemUnderTest
{
    /// <summary>
    /// The two hosts of a shaped link: the namespaces and the link, the source's cluster (listening on its link
    /// address too, trusting only the link's /30) and the target's, each inside its namespace; then the seed and the
    /// services, each service on its own host, using its own database over TCP 127.0.0.1 as on loopback.
    /// </summary>
    private static async Task<SystemUnderTest> StartTwoHostsAsync(BenchSettings settings, NetworkLink link, Action<string> say, CancellationToken ct)
    {
        say($"Building two hosts joined by a {link.Name} link (network namespaces, one veth pair shaped with tc tbf)…");
        var lab = await TwoHostLab.CreateAsync(link.RateBitsPerSecond!.Value, ct: ct);
        var serverSettings = ServerSettings(settings);
        var parent = settings.Tmpfs ? BenchSettings.TmpfsDirectory : null;
        LocalPostgres? source = null;
        LocalPostgres? target = null;
        try
        {
            say($"Starting the source host's and the target host's PostgreSQL clusters (source on {lab.SourceAddress}, target on its own loopback)…");
            source = await LocalPostgres.StartAsync(new PostgresHost(lab.SourceNamespace, lab.SourceAddress, lab.Network), serverSettings, parent, ct);
            target = await LocalPostgres.StartAsync(new PostgresHost(lab.TargetNamespace), serverSettings, parent, ct);
            await source.CreateDatabaseAsync(Lab.SourceDatabase, ct);
            await target.CreateDatabaseAsync(Lab.TargetDatabase, ct);
        }
        catch
        {
            await DisposeAllAsync(target, source, lab);
            throw;
        }

        var system = new SystemUnderTest
        {
            SourceDb = source.ControlConnectionString(Lab.SourceDatabase),
            TargetDb = target.ControlConnectionString(Lab.TargetDatabase),
            SourceServiceDb = source.ConnectionString(Lab.SourceDatabase),
            TargetServiceDb = target.ConnectionString(Lab.TargetDatabase),
            Link = link,
            // The peers run on the target host and read the source across the link, as SomeService does.
            PeerPlacement = new PeerPlacement(lab.TargetNamespace, source.LinkConnectionString(Lab.SourceDatabase), target.ConnectionString(Lab.TargetDatabase)),
            PostgresSettings = serverSettings,
            _postgres = source,
            _targetPostgres = target,
            _lab = lab,
            _sourceHost = new ServiceHost(lab.SourceNamespace, lab.SourceAddress, Path.Combine(source.Directory, "syncdatasource.sock")),
            // Nobody calls SomeService over the link: its TCP endpoint is its host's own loopback.
            _someServiceHost = new ServiceHost(lab.TargetNamespace, "127.0.0.1", Path.Combine(target.Directory, "someservice.sock")),
        };
        return await system.PrepareAndStartAsync(settings, say, ct);
    }

    private static async Task DisposeAllAsync(params IAsyncDisposable?[] parts)
    {
        foreach (var part in parts.OfType<IAsyncDisposable>())
        {
            await part.DisposeAsync();
        }
    }

    /// <summary>The bytes crossed so far, each way; null on loopback.</summary>
    public async Task<LinkCounters?> ReadLinkCountersAsync(CancellationToken ct) =>
        _lab is null ? null : await _lab.ReadCountersAsync(ct);
}
