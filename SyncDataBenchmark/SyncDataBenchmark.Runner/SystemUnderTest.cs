using System.Diagnostics;
using Npgsql;
using SyncData.Harness;
using SyncData.Harness.Network;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The databases and services one benchmark session runs against: a throwaway cluster (or --connection), seeded
/// source and empty target, and SyncDataSource + SomeService as their own Release processes (or the given URLs).
/// Across a shaped link (--link) it is two hosts instead: the source's cluster and SyncDataSource in one network
/// namespace, the target's cluster and SomeService in another, joined by the link (TwoHostLab); the runner reaches
/// both clusters and both services through unix sockets, never over the link.
/// </summary>
public sealed partial class SystemUnderTest : IAsyncDisposable
{
    private LocalPostgres? _postgres;
    private LocalPostgres? _targetPostgres;
    private TwoHostLab? _lab;
    private ServiceProcess? _source;
    private ServiceProcess? _someService;
    private ServiceHost? _sourceHost;
    private ServiceHost? _someServiceHost;

    /// <summary>The databases as the runner reaches them (seeding, planting, verifying).</summary>
    public required string SourceDb { get; init; }
    public required string TargetDb { get; init; }

    /// <summary>The databases as each service reaches its own (over TCP on its host); the runner's strings on loopback.</summary>
    public string SourceServiceDb { get; private init; } = "";
    public string TargetServiceDb { get; private init; } = "";

    /// <summary>The link the two hosts are joined by; loopback is one host.</summary>
    public NetworkLink Link { get; private init; } = NetworkLink.Loopback;

    /// <summary>The two-host lab of a shaped link (its counters, its fault); null on loopback.</summary>
    public TwoHostLab? NetworkLab => _lab;

    /// <summary>Where the peers run and what they connect to: from the target host, the source across the link.</summary>
    public PeerPlacement PeerPlacement { get; private init; } = null!;
    public string PostgresVersion { get; private set; } = "";
    public IReadOnlyDictionary<string, string> PostgresSettings { get; private set; } = new Dictionary<string, string>();
    public bool SeedReused { get; private set; }
    public double? SeedMs { get; private set; }
    public TableChecksum SourceChecksum { get; private set; } = null!;
    /// <summary>Where the runner reaches SomeService: a URL, or http://unix:/path on a shaped link.</summary>
    public string SomeServiceAddress { get; private set; } = "";
    private Uri? _externalSomeService;
    public Uri? SourceUrl { get; private set; }
    /// <summary>Set once the runner started the services (and kept after they are stopped, for the record).</summary>
    public bool ServicesStartedByRunner { get; private set; }

    /// <summary>The profile the runner started the services with; null for services someone else started.</summary>
    public RuntimeProfile? Profile { get; private set; }

    /// <summary>What each service reported it runs with after its latest start (or at the first look, if external).</summary>
    public RuntimeSettings? SomeServiceSettings { get; private set; }
    public RuntimeSettings? SourceSettings { get; private set; }

    public static Task<SystemUnderTest> StartAsync(BenchSettings settings, Action<string> say, CancellationToken ct) =>
        StartAsync(settings, settings.Links[0], say, ct);

    public static async Task<SystemUnderTest> StartAsync(BenchSettings settings, NetworkLink link, Action<string> say, CancellationToken ct)
    {
        // What a killed earlier run (or test run) left behind would compete for the same two cores.
        LabSweeper.Sweep();
        if (link.Shaped)
        {
            return await StartTwoHostsAsync(settings, link, say, ct);
        }

        LocalPostgres? postgres = null;
        SystemUnderTest system;
        if (settings.Connection is { } baseConnection)
        {
            system = Loopback(WithDatabase(baseConnection, Lab.SourceDatabase), WithDatabase(baseConnection, Lab.TargetDatabase));
            say($"Using the PostgreSQL server of --connection ({new NpgsqlConnectionStringBuilder(baseConnection).Host}).");
            await EnsureDatabaseAsync(baseConnection, Lab.SourceDatabase, ct);
            await EnsureDatabaseAsync(baseConnection, Lab.TargetDatabase, ct);
        }
        else
        {
            var serverSettings = ServerSettings(settings);
            say(settings.Tmpfs
                ? $"Starting a throwaway PostgreSQL cluster on {BenchSettings.TmpfsDirectory} ({string.Join(", ", serverSettings.Select(s => $"{s.Key}={s.Value}"))})…"
                : "Starting a throwaway PostgreSQL cluster…");
            postgres = await LocalPostgres.StartAsync(serverSettings, settings.Tmpfs ? BenchSettings.TmpfsDirectory : null, ct);
            system = Loopback(postgres.ConnectionString(Lab.SourceDatabase), postgres.ConnectionString(Lab.TargetDatabase));
            system._postgres = postgres;
            system.PostgresSettings = serverSettings;
        }

        try
        {
            if (postgres is not null)
            {
                await postgres.CreateDatabaseAsync(Lab.SourceDatabase, ct);
                await postgres.CreateDatabaseAsync(Lab.TargetDatabase, ct);
            }
        }
        catch
        {
            await system.DisposeAsync();
            throw;
        }

        return await system.PrepareAndStartAsync(settings, say, ct);
    }

    /// <summary>Seeds the first size and starts the services under the main profile; a failure stops what was started.</summary>
    private async Task<SystemUnderTest> PrepareAndStartAsync(BenchSettings settings, Action<string> say, CancellationToken ct)
    {
        try
        {
            await PrepareDataAsync(settings.Sizes[0], say, ct);
            await StartServicesAsync(settings, settings.MainProfile, say, ct);
            return this;
        }
        catch
        {
            await DisposeAsync();
            throw;
        }
    }

    /// <summary>One host: the runner, the services and the peers all use the same connection strings.</summary>
    private static SystemUnderTest Loopback(string source, string target) => new()
    {
        SourceDb = source, TargetDb = target, SourceServiceDb = source, TargetServiceDb = target,
        PeerPlacement = new PeerPlacement(null, source, target),
    };

    private static Dictionary<string, string> ServerSettings(BenchSettings settings) =>
        BenchSettings.LabPostgresSettings
            .Concat(settings.Tmpfs ? BenchSettings.TmpfsPostgresSettings : [])
            .ToDictionary(s => s.Key, s => s.Value);

    /// <summary>Schema on both sides, and the source seeded with <paramref name="rows"/> rows unless it holds exactly that many.</summary>
    public async Task PrepareDataAsync(long rows, Action<string> say, CancellationToken ct)
    {
        await SqlScripts.ApplySchemaAsync(SourceDb, withGenerator: true, ct);
        await SqlScripts.ApplySchemaAsync(TargetDb, withGenerator: false, ct);
        await using (var connection = new NpgsqlConnection(SourceDb))
        {
            await connection.OpenAsync(ct);
            await using var show = new NpgsqlCommand("show server_version", connection);
            PostgresVersion = (string)(await show.ExecuteScalarAsync(ct))!;
            await using var count = new NpgsqlCommand($"select count(*) from {UsersTable.Name}", connection) { CommandTimeout = 0 };
            SeedReused = (long)(await count.ExecuteScalarAsync(ct))! == rows;
        }

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

    private async Task StartServicesAsync(BenchSettings settings, RuntimeProfile profile, Action<string> say, CancellationToken ct)
    {
        if (settings.SomeServiceUrl is { } someService)
        {
            // Someone else's SomeService reads from whatever source it was configured with; --source-url is only recorded.
            _externalSomeService = someService;
            SomeServiceAddress = someService.ToString();
            SourceUrl = settings.SourceUrl;
            say($"Using SomeService at {someService}.");
            using var http = new HttpClient { BaseAddress = someService, Timeout = TimeSpan.FromSeconds(10) };
            using var health = await http.GetAsync("health", ct);
            health.EnsureSuccessStatusCode();
            SomeServiceSettings = await ReadSettingsAsync(CreateSomeServiceClient(TimeSpan.FromSeconds(10)), ct);
            return;
        }

        Profile = profile;
        ServicesStartedByRunner = true;

        if (settings.SourceUrl is { } source)
        {
            SourceUrl = source;
            say($"Using SyncDataSource at {source}.");
        }
        else
        {
            say($"Starting SyncDataSource ({Lab.BuildConfiguration}, profile {profile.Name})…");
            _source = await StartSourceAsync(LocalPostgres.FreePort(), ct);
            SourceUrl = _source.BaseAddress;
        }

        say($"Starting SomeService ({Lab.BuildConfiguration}, profile {profile.Name})…");
        _someService = await StartSomeServiceAsync(LocalPostgres.FreePort(), ct);
        SomeServiceAddress = _someService.ControlAddress;
        await CheckProfileAsync(ct);
    }

    /// <summary>
    /// Stops the services this runner started and starts them again under another profile, on the same ports (no run
    /// carries process state from one profile into the next). Throws if a service does not run what was asked.
    /// </summary>
    public async Task UseProfileAsync(RuntimeProfile profile, Action<string> say, CancellationToken ct)
    {
        if (_someService is null || profile == Profile)
        {
            return;
        }

        say($"Restarting the services with profile {profile.Name} ({profile.Description})…");
        Profile = profile;
        var someServicePort = _someService.BaseAddress.Port;
        await _someService.DisposeAsync();
        if (_source is not null)
        {
            var sourcePort = _source.BaseAddress.Port;
            await _source.DisposeAsync();
            _source = await StartSourceAsync(sourcePort, ct);
        }

        _someService = await StartSomeServiceAsync(someServicePort, ct);
        await CheckProfileAsync(ct);
    }

    private Task<ServiceProcess> StartSourceAsync(int port, CancellationToken ct) =>
        ServiceProcess.StartAsync("SyncDataSource", Lab.BuiltAssembly("SyncDataSource"), port, _sourceHost,
            WithProfile(Lab.SourceEnvironment(SourceServiceDb)), ct);

    private Task<ServiceProcess> StartSomeServiceAsync(int port, CancellationToken ct) =>
        ServiceProcess.StartAsync("SomeService", Lab.BuiltAssembly("SomeService"), port, _someServiceHost,
            WithProfile(Lab.SomeServiceEnvironment(TargetServiceDb, SourceUrl!)), ct);

    /// <summary>An HttpClient to SomeService for the runner: over its control socket on a shaped link, else to its URL.</summary>
    public HttpClient CreateSomeServiceClient(TimeSpan timeout) => _someService is { } started
        ? started.CreateClient(timeout)
        : new HttpClient { BaseAddress = _externalSomeService, Timeout = timeout };

    private Dictionary<string, string> WithProfile(Dictionary<string, string> environment)
    {
        foreach (var (key, value) in Profile?.Environment ?? new Dictionary<string, string>())
        {
            environment[key] = value;
        }

        return environment;
    }

    /// <summary>Both services must report the settings their profile stands for: a knob the runtime ignored is a setup error.</summary>
    private async Task CheckProfileAsync(CancellationToken ct)
    {
        SomeServiceSettings = await ReadSettingsAsync(CreateSomeServiceClient(TimeSpan.FromSeconds(10)), ct);
        SourceSettings = _source is null ? null : await ReadSettingsAsync(_source.CreateClient(TimeSpan.FromSeconds(10)), ct);
        var wrong = new[] { ("SomeService", SomeServiceSettings), ("SyncDataSource", SourceSettings) }
            .Where(x => x.Item2 is not null && Profile!.Check(x.Item2) is not null)
            .Select(x => $"{x.Item1}: {Profile!.Check(x.Item2!)}")
            .ToList();
        if (wrong.Count > 0)
        {
            throw new InvalidOperationException($"The services do not run profile {Profile!.Name}: {string.Join(" ", wrong)}");
        }
    }

    private static async Task<RuntimeSettings?> ReadSettingsAsync(HttpClient client, CancellationToken ct)
    {
        using var http = client;
        using var response = await http.GetAsync("runtime/settings", ct);
        // A service from before runtime profiles existed has no such endpoint: its settings are simply unknown.
        return response.IsSuccessStatusCode
            ? await System.Net.Http.Json.HttpContentJsonExtensions.ReadFromJsonAsync(response.Content, SyncJsonContext.Default.RuntimeSettings, ct)
            : null;
    }

    /// <summary>
    /// Restarts a service this runner started if it died (a crashed run must not fail every later one too).
    /// Returns what was done, or null when both were alive.
    /// </summary>
    public async Task<string?> ReviveAsync(CancellationToken ct)
    {
        // Same port: SomeService was told the source's address, the runner SomeService's.
        var done = new[]
        {
            await RestartIfExitedAsync("SyncDataSource", _source, StartSourceAsync, s => _source = s, ct),
            await RestartIfExitedAsync("SomeService", _someService, StartSomeServiceAsync, s => _someService = s, ct),
        }.OfType<string>().ToList();
        return done.Count == 0 ? null : string.Join(" ", done);
    }

    private static async Task<string?> RestartIfExitedAsync(string name, ServiceProcess? service, Func<int, CancellationToken, Task<ServiceProcess>> start,
        Action<ServiceProcess> replace, CancellationToken ct)
    {
        if (service is not { HasExited: true })
        {
            return null;
        }

        var output = service.RecentOutput;
        var port = service.BaseAddress.Port;
        await service.DisposeAsync();
        replace(await start(port, ct));
        return $"{name} had exited and was restarted; its last output: {Last(output)}";
    }

    /// <summary>SomeService's last lines, when the runner started it: context for a failed request.</summary>
    public string? SomeServiceOutput => _someService is null ? null : Last(_someService.RecentOutput);

    private static string Last(string output) => string.Join(" | ", output.Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(8));

    private static string WithDatabase(string baseConnection, string database) =>
        new NpgsqlConnectionStringBuilder(baseConnection) { Database = database }.ConnectionString;

    /// <summary>Creates a database on an existing server unless it exists (CREATE DATABASE has no IF NOT EXISTS).</summary>
    private static async Task EnsureDatabaseAsync(string baseConnection, string database, CancellationToken ct)
    {
        var maintenance = new NpgsqlConnectionStringBuilder(baseConnection);
        maintenance.Database ??= "postgres";
        await using var connection = new NpgsqlConnection(maintenance.ConnectionString);
        await connection.OpenAsync(ct);
        await using var exists = new NpgsqlCommand("select 1 from pg_database where datname = $1", connection);
        exists.Parameters.Add(new() { Value = database });
        if (await exists.ExecuteScalarAsync(ct) is null)
        {
            await using var create = new NpgsqlCommand($"create database \"{database}\"", connection);
            await create.ExecuteNonQueryAsync(ct);
        }
    }

    /// <summary>Stops everything this system started, each part once (a second call finds nothing left).</summary>
    public async ValueTask DisposeAsync()
    {
        IAsyncDisposable?[] parts = [_someService, _source, _postgres, _targetPostgres, _lab];
        (_someService, _source, _postgres, _targetPostgres, _lab) = (null, null, null, null, null);
        // In this order: the services, the clusters, and last the lab, since nothing may still run inside its namespaces.
        await DisposeAllAsync(parts);
    }
}
