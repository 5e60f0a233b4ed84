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

    private IReadOnlyList<SyncTable> _tables;

    /// <summary>--source-connection: the user's table as --table named it, described once the lab reaches it (<see cref="OwnTable"/>).</summary>
    private string? _ownTableName;

    private Action<string> _say = _ => { };

    /// <summary>The largest size and whether a seed too big for the disk is refused; null once checked (SizeCheck).</summary>
    private (long Largest, bool Enforce)? _sizeCheck;

    private BenchLab(LabDatabases databases, NetworkLink link, IReadOnlyList<SyncTable> tables) => (Databases, Link, _tables) = (databases, link, tables);

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
    /// <summary>The user's table (--source-connection), described from its catalog; null for the lab's own tables.</summary>
    public SyncTable? OwnTable { get; private set; }
    /// <summary>The user's table's bytes (heap and TOAST), for the estimate before the first run; 0 for the lab's own tables.</summary>
    public long OwnTableBytes { get; private set; }
    /// <summary>Each table's count and checksum in the source at the current size, by name.</summary>
    public Dictionary<string, TableChecksum> SourceChecksums { get; } = [];
    /// <summary>The tables the session moves, each named one (public.users, a folder table) described from the source's catalog.</summary>
    public IReadOnlyList<SyncTable> Tables => _tables;

    /// <summary>The first table's.</summary>
    public TableChecksum SourceChecksum => SourceChecksums[_tables[0].Name];

    /// <summary>The lab of <paramref name="link"/>: its databases, the first size seeded, the services up under the first profile.</summary>
    public static async Task<BenchLab> StartAsync(BenchSettings settings, NetworkLink link, Action<string> say, CancellationToken ct)
    {
        if (settings.SourceConnection is { } user)
        {
            // The user's database reached and the table holding rows before any cluster or service starts.
            await OwnTableSource.CheckAsync(OwnTableSource.ReadOnly(user), settings.OwnTable!, ct);
            if (settings.FollowsOwnTable)
            {
                // The rights following needs, each missing one named, before anything starts or is installed.
                await Follow.OwnTableRights.CheckAsync(settings, OwnTableSource.ReadOnly(user), ct);
            }
        }

        // What a killed earlier run (or test run) left behind would compete for the same two cores.
        LabSweeper.Sweep();
        var databases = link.Shaped ? await TwoHosts.StartAsync(link.Name, link.RateBitsPerSecond!.Value, settings.Tmpfs, say, ct)
            : settings.Connection is { } connection ? await ExistingServer.OpenAsync(connection, say, ct)
            : await OneHost.StartAsync(settings.Tmpfs, say, ct);
        if (settings.SourceConnection is { } own)
        {
            // The user's database is the source, read only; the lab's own (the cluster's, or --connection's) the target.
            var source = OwnTableSource.ReadOnly(own);
            // The read-only peers (OwnTableMatrix.Peers) read it through the same read-only connection.
            // Following by opt-in (--follow-install, --follow-publication), SyncDataSource makes the publication and writes
            // heartbeats, which a read-only connection refuses; the runner's own reads stay read only.
            var service = settings.FollowsOwnTable ? own : source;
            databases = databases with { SourceDb = source, SourceServiceDb = service, PeerPlacement = databases.PeerPlacement with { SourceConnection = source } };
        }

        var lab = new BenchLab(databases, link, settings.Tables) { _ownTableName = settings.OwnTable, _sizeCheck = (settings.Sizes.Max(), settings.SizeCheck) };
        try
        {
            await lab.PrepareDataAsync(settings.Sizes[0], say, ct);
            lab.Services = settings.SomeServiceUrl is { } someService
                ? await ExistingServices.CheckAsync(someService, settings.SourceUrl, say, ct)
                : await new StartedServices(databases, settings.SourceUrl, settings.MainProfile).StartAsync(say, ct);
            return lab;
        }
        catch
        {
            await lab.DisposeAsync();
            throw;
        }
    }

    /// <summary>Schema on both sides, and each table of the source seeded with <paramref name="rows"/> rows unless it holds exactly that many.</summary>
    public async Task PrepareDataAsync(long rows, Action<string> say, CancellationToken ct)
    {
        if (_ownTableName is { } name)
        {
            await PrepareOwnTableAsync(name, say, ct);
            return;
        }

        await Lab.PrepareDatabasesAsync(SourceDb, TargetDb, seedRows: 0, ct);
        PostgresVersion = (string)(await Lab.ScalarAsync(SourceDb, "show server_version", ct))!;
        (SeedReused, SeedMs, _rows, _say) = (true, null, rows, say);
        await DescribeNamedTablesAsync(ct);
        if (_sizeCheck is var (largest, enforce))
        {
            // Once, for the largest size, before the first seed.
            _sizeCheck = null;
            await SizeCheck.CheckAsync(SourceDb, _tables, largest, [.. Databases.Owned.OfType<LocalPostgres>().Select(p => p.Directory)], enforce, say, ct);
        }

        foreach (var table in _tables)
        {
            await SeedAsync(table, rows, say, ct);
        }
    }

    /// <summary>
    /// Each table named but not yet described (a catalog view, a folder table: <see cref="SyncTable.ToDescribe"/>),
    /// described from the source's catalog, as SyncDataSource and SomeService each describe it from theirs: its checksum
    /// then reads every column through its send function, as theirs does.
    /// </summary>
    private async Task DescribeNamedTablesAsync(CancellationToken ct)
    {
        if (!_tables.Any(t => t.Undescribed))
        {
            return;
        }

        await using var connection = new Npgsql.NpgsqlConnection(SourceDb);
        await connection.OpenAsync(ct);
        var described = new List<SyncTable>();
        foreach (var table in _tables)
        {
            described.Add(table.Undescribed
                ? table.DescribedAs(await SyncData.Postgres.Catalog.TableCatalog.ReadAsync(connection, table.Name, ct))
                : table);
        }

        _tables = described;
    }

    /// <summary>
    /// --source-connection: the lab's schema on the target alone, the user's table described (only read) and created
    /// alike there, and its count and checksum read: nothing is seeded, nothing written to the user's database.
    /// </summary>
    private async Task PrepareOwnTableAsync(string name, Action<string> say, CancellationToken ct)
    {
        await SqlScripts.ApplySchemaAsync(TargetDb, withGenerator: false, ct);
        PostgresVersion = (string)(await Lab.ScalarAsync(SourceDb, "show server_version", ct))!;
        var table = OwnTable = await OwnTableSource.DescribeAsync(SourceDb, name, say, ct);
        await OwnTableSource.CreateTargetAsync(TargetDb, table, say, ct);
        _tables = [table];
        // Nothing seeded and nothing reused: the user's table is read as it is.
        (SeedReused, SeedMs, _say) = (false, null, say);
        var (tuples, bytes) = await OwnTableSource.SizeAsync(SourceDb, table, ct);
        OwnTableBytes = bytes;
        say($"Reading your table's count and checksum (the catalog estimates {Math.Max(tuples, 0):N0} rows, {bytes / 1e6:N0} MB)…");
        SourceChecksums[table.Name] = await Lab.ReadChecksumAsync(SourceDb, table, ct);
        _rows = SourceChecksums[table.Name].Rows;
    }

    private async Task SeedAsync(SyncTable table, long rows, Action<string> say, CancellationToken ct)
    {
        if ((long)(await Lab.ScalarAsync(SourceDb, $"select count(*) from {table.SqlName}", ct))! == rows)
        {
            say($"Reusing the existing seed of {rows:N0} rows of {table.Name} in '{Lab.SourceDatabase}'.");
        }
        else
        {
            say($"Seeding {rows:N0} rows of {table.Name} into '{Lab.SourceDatabase}' (its generator: sql/generate.sql, or its folder's)…");
            var clock = Stopwatch.StartNew();
            await SqlScripts.SeedAsync(SourceDb, table, rows, ct);
            (SeedReused, SeedMs) = (false, Math.Round((SeedMs ?? 0) + clock.Elapsed.TotalMilliseconds, 1));
            say($"Seeded in {clock.Elapsed.TotalSeconds:F1} s.");
        }

        SourceChecksums[table.Name] = await Lab.ReadChecksumAsync(SourceDb, table, ct);
        if (SourceChecksums[table.Name].Rows != rows)
        {
            throw new InvalidOperationException($"The source holds {SourceChecksums[table.Name].Rows:N0} rows of {table.Name} after seeding, not {rows:N0}.");
        }
    }

    /// <summary>The bytes crossed so far, each way; null on one host.</summary>
    public async Task<LinkCounters?> ReadLinkCountersAsync(CancellationToken ct) =>
        Databases.Network is { } network ? await network.ReadCountersAsync(ct) : null;

    /// <summary>
    /// How a run moving <paramref name="table"/> starts (TargetPreparation): from an emptied target, or with a
    /// <paramref name="share"/> (--changed) from one equal to the source before it changed, the change seeded by <paramref name="seed"/>.
    /// </summary>
    public Func<CancellationToken, Task<TargetStart>> TargetStart(SyncTable table, double? share, int seed) =>
        _ownTableName is not null ? ct => OwnTableSource.EmptyTargetAsync(TargetDb, table, SourceChecksums[table.Name], ct)
        : share is { } s
        ? async ct =>
        {
            await KeepSizeAsync(table, ct);
            return await TargetPreparation.ChangedAsync(SourceDb, TargetDb, table, s, seed, ct);
        }
        : ct => TargetPreparation.EmptyAsync(TargetDb, table, SourceChecksums[table.Name], ct);

    /// <summary>
    /// --changed: how far a table may drift from the size measured before it is seeded again. Every change adds more
    /// rows than it deletes (20% inserts, 10% deletes), so without this a session's later runs would meet a larger
    /// table than its earlier ones (at 10% changed, 1% more per run).
    /// </summary>
    public const double MaxDrift = 0.05;

    private long _rows;

    /// <summary>Seeds <paramref name="table"/> again (untimed) when its row count has drifted past <see cref="MaxDrift"/> from the size measured.</summary>
    private async Task KeepSizeAsync(SyncTable table, CancellationToken ct)
    {
        var count = (long)(await Lab.ScalarAsync(SourceDb, $"select count(*) from {table.Name}", ct))!;
        if (Math.Abs(count - _rows) > MaxDrift * _rows)
        {
            _say($"The source's {table.Name} drifted to {count:N0} rows through the changes: seeding {_rows:N0} again.");
            await SqlScripts.SeedAsync(SourceDb, table, _rows, ct);
        }
    }

    /// <summary>A peer runner moving <paramref name="table"/> at the current seed (and share): it verifies against the source's checksum as each run starts.</summary>
    public PeerRunner Peers(SyncTable table, double? share = null, int seed = 0) =>
        new(SourceDb, TargetDb, table, SourceChecksums[table.Name], Databases.PeerPlacement, ReadLinkCountersAsync) { Start = TargetStart(table, share, seed) };

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
