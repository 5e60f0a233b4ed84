using SyncData.Harness.Network;

namespace SyncData.Harness;

/// <summary>
/// Two hosts joined by a shaped link (the runner's --link): network namespaces and one veth pair, the source's cluster (listening
/// on its link address too, trusting only the link's /30) and SyncDataSource on one, the target's cluster and
/// SomeService on the other, each service using its own database over TCP 127.0.0.1 as on one host. The runner and
/// the tests reach both clusters and both services through unix sockets, never over the link.
/// </summary>
public static class TwoHosts
{
    /// <summary>The two hosts joined by the link <paramref name="linkName"/> at <paramref name="rateBitsPerSecond"/>; <paramref name="tmpfs"/> as for <see cref="OneHost"/>.</summary>
    public static async Task<LabDatabases> StartAsync(string linkName, long rateBitsPerSecond, bool tmpfs, Action<string> say, CancellationToken ct)
    {
        say($"Building two hosts joined by a {linkName} link (network namespaces, one veth pair shaped with tc tbf)…");
        var lab = await TwoHostLab.CreateAsync(rateBitsPerSecond, ct: ct);
        var serverSettings = LabDatabases.ServerSettings(tmpfs);
        var parent = tmpfs ? LabDatabases.TmpfsDirectory : null;
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
            await LabDatabases.DisposeAllAsync(target, source, lab);
            throw;
        }

        // The peers run on the target host and read the source across the link, as SomeService does.
        var peers = new PeerPlacement(lab.TargetNamespace, source.LinkConnectionString(Lab.SourceDatabase), target.ConnectionString(Lab.TargetDatabase));
        return new LabDatabases(source.ControlConnectionString(Lab.SourceDatabase), target.ControlConnectionString(Lab.TargetDatabase), peers)
        {
            SourceServiceDb = source.ConnectionString(Lab.SourceDatabase),
            TargetServiceDb = target.ConnectionString(Lab.TargetDatabase),
            Network = lab,
            SourceHost = new ServiceHost(lab.SourceNamespace, lab.SourceAddress, Path.Combine(source.Directory, "syncdatasource.sock")),
            // Nobody calls SomeService over the link: its TCP endpoint is its host's own loopback.
            SomeServiceHost = new ServiceHost(lab.TargetNamespace, "127.0.0.1", Path.Combine(target.Directory, "someservice.sock")),
            PostgresSettings = serverSettings,
            Owned = [source, target, lab],
        };
    }
}
