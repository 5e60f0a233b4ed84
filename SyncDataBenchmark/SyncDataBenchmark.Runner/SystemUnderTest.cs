using System.Diagnostics;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The databases and services one benchmark session runs against: a throwaway cluster (or --connection), seeded
/// source and empty target, and SyncDataSource + SomeService as their own Release processes (or the given URLs).
/// </summary>
public sealed class SystemUnderTest : IAsyncDisposable
{
    private LocalPostgres? _postgres;
    private ServiceProcess? _source;
    private ServiceProcess? _someService;

    public required string SourceDb { get; init; }
    public required string TargetDb { get; init; }
    public string PostgresVersion { get; private set; } = "";
    public IReadOnlyDictionary<string, string> PostgresSettings { get; private set; } = new Dictionary<string, string>();
    public bool SeedReused { get; private set; }
    public double? SeedMs { get; private set; }
    public TableSummary SourceSummary { get; private set; } = null!;
    public Uri SomeServiceUrl { get; private set; } = null!;
    public Uri? SourceUrl { get; private set; }
    public bool ServicesStartedByRunner => _someService is not null;

    /// <summary>The profile the runner started the services with; null for services someone else started.</summary>
    public RuntimeProfile? Profile { get; private set; }

    /// <summary>What each service reported it runs with after its latest start (or at the first look, if external).</summary>
    public RuntimeSettings? SomeServiceSettings { get; private set; }
    public RuntimeSettings? SourceSettings { get; private set; }

    public static async Task<SystemUnderTest> StartAsync(BenchSettings settings, Action<string> say, CancellationToken ct)
    {
        // What a killed earlier run (or test run) left behind would compete for the same two cores.
        LabSweeper.Sweep();
        LocalPostgres? postgres = null;
        SystemUnderTest system;
        if (settings.Connection is { } baseConnection)
        {
            system = new SystemUnderTest { SourceDb = WithDatabase(baseConnection, Lab.SourceDatabase), TargetDb = WithDatabase(baseConnection, Lab.TargetDatabase) };
            say($"Using the PostgreSQL server of --connection ({new NpgsqlConnectionStringBuilder(baseConnection).Host}).");
            await EnsureDatabaseAsync(baseConnection, Lab.SourceDatabase, ct);
            await EnsureDatabaseAsync(baseConnection, Lab.TargetDatabase, ct);
        }
        else
        {
            var serverSettings = BenchSettings.LabPostgresSettings
                .Concat(settings.Tmpfs ? BenchSettings.TmpfsPostgresSettings : [])
                .ToDictionary(s => s.Key, s => s.Value);
            say(settings.Tmpfs
                ? $"Starting a throwaway PostgreSQL cluster on {BenchSettings.TmpfsDirectory} ({string.Join(", ", serverSettings.Select(s => $"{s.Key}={s.Value}"))})…"
                : "Starting a throwaway PostgreSQL cluster…");
            postgres = await LocalPostgres.StartAsync(serverSettings, settings.Tmpfs ? BenchSettings.TmpfsDirectory : null, ct);
            system = new SystemUnderTest { SourceDb = postgres.ConnectionString(Lab.SourceDatabase), TargetDb = postgres.ConnectionString(Lab.TargetDatabase) };
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

            await system.PrepareDataAsync(settings.Sizes[0], say, ct);
            await system.StartServicesAsync(settings, settings.MainProfile, say, ct);
            return system;
        }
        catch
        {
            await system.DisposeAsync();
            throw;
        }
    }

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

        SourceSummary = await Lab.ReadSummaryAsync(SourceDb, ct);
        if (SourceSummary.Rows != rows)
        {
            throw new InvalidOperationException($"The source holds {SourceSummary.Rows:N0} rows after seeding, not {rows:N0}.");
        }
    }

    private async Task StartServicesAsync(BenchSettings settings, RuntimeProfile profile, Action<string> say, CancellationToken ct)
    {
        if (settings.SomeServiceUrl is { } someService)
        {
            // Someone else's SomeService reads from whatever source it was configured with; --source-url is only recorded.
            SomeServiceUrl = someService;
            SourceUrl = settings.SourceUrl;
            say($"Using SomeService at {someService}.");
            using var http = new HttpClient { BaseAddress = someService, Timeout = TimeSpan.FromSeconds(10) };
            using var health = await http.GetAsync("health", ct);
            health.EnsureSuccessStatusCode();
            SomeServiceSettings = await ReadSettingsAsync(someService, ct);
            return;
        }

        Profile = profile;

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
        SomeServiceUrl = _someService.BaseAddress;
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
        ServiceProcess.StartAsync("SyncDataSource", Lab.BuiltAssembly("SyncDataSource"), port,
            WithProfile(Lab.SourceEnvironment(SourceDb)), ct);

    private Task<ServiceProcess> StartSomeServiceAsync(int port, CancellationToken ct) =>
        ServiceProcess.StartAsync("SomeService", Lab.BuiltAssembly("SomeService"), port,
            WithProfile(Lab.SomeServiceEnvironment(TargetDb, SourceUrl!)), ct);

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
        SomeServiceSettings = await ReadSettingsAsync(SomeServiceUrl, ct);
        SourceSettings = _source is null ? null : await ReadSettingsAsync(_source.BaseAddress, ct);
        var wrong = new[] { ("SomeService", SomeServiceSettings), ("SyncDataSource", SourceSettings) }
            .Where(x => x.Item2 is not null && Profile!.Check(x.Item2) is not null)
            .Select(x => $"{x.Item1}: {Profile!.Check(x.Item2!)}")
            .ToList();
        if (wrong.Count > 0)
        {
            throw new InvalidOperationException($"The services do not run profile {Profile!.Name}: {string.Join(" ", wrong)}");
        }
    }

    private static async Task<RuntimeSettings?> ReadSettingsAsync(Uri service, CancellationToken ct)
    {
        using var http = new HttpClient { BaseAddress = service, Timeout = TimeSpan.FromSeconds(10) };
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

    public async ValueTask DisposeAsync()
    {
        if (_someService is not null)
        {
            await _someService.DisposeAsync();
        }

        if (_source is not null)
        {
            await _source.DisposeAsync();
        }

        if (_postgres is not null)
        {
            await _postgres.DisposeAsync();
        }
    }
}
