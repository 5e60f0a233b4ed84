using System.Net.Http.Json;
using SyncData.Shared;

namespace SyncData.Harness;

/// <summary>
/// SyncDataSource (unless <paramref name="userSource"/> names a running one) and SomeService as processes the lab
/// starts, under a runtime profile, each on its host (<see cref="LabDatabases.SourceHost"/>; loopback ports on one
/// host): the runner's services, and the tests' (which add settings of their own, or a proxy in between).
/// </summary>
public sealed class StartedServices(LabDatabases databases, Uri? userSource, RuntimeProfile profile) : ILabServices
{
    private ServiceProcess? _source;
    private ServiceProcess _someService = null!;
    private RuntimeProfile _profile = profile;

    public string SomeServiceAddress => _someService.ControlAddress;
    public Uri? SourceUrl => _source?.BaseAddress ?? userSource;
    public bool StartedByRunner => true;
    public string? SomeServiceOutput => Last(_someService.RecentOutput);

    /// <summary>The processes, for a test that stops, signals or restarts one; no source when <paramref name="userSource"/> is given.</summary>
    public ServiceProcess? Source => _source;
    public ServiceProcess SomeService => _someService;

    /// <summary>Settings added after the profile's: a service given a runtime knob here is not checked against the profile.</summary>
    public IReadOnlyDictionary<string, string> SourceSettings { get; init; } = new Dictionary<string, string>();
    public IReadOnlyDictionary<string, string> SomeServiceSettings { get; init; } = new Dictionary<string, string>();

    /// <summary>Where SomeService finds SyncDataSource, when not directly (a test's proxy in between).</summary>
    public Uri? SourceForSomeService { get; init; }

    /// <summary>Starts both (or SomeService alone); on failure stops what started.</summary>
    public async Task<StartedServices> StartAsync(Action<string> say, CancellationToken ct)
    {
        try
        {
            if (userSource is not null)
            {
                say($"Using SyncDataSource at {userSource}.");
            }
            else
            {
                say($"Starting SyncDataSource ({Lab.BuildConfiguration}, profile {_profile.Name})…");
                _source = await StartSourceAsync(LocalPostgres.FreePort(), ct);
            }

            say($"Starting SomeService ({Lab.BuildConfiguration}, profile {_profile.Name})…");
            _someService = await StartSomeServiceAsync(LocalPostgres.FreePort(), ct);
            await CheckProfileAsync(ct);
            return this;
        }
        catch
        {
            await DisposeAsync();
            throw;
        }
    }

    /// <summary>Stops both and starts them again under another profile, on the same ports: no run carries process state from one profile into the next.</summary>
    public async Task UseProfileAsync(RuntimeProfile profile, Action<string> say, CancellationToken ct)
    {
        if (profile == _profile)
        {
            return;
        }

        say($"Restarting the services with profile {profile.Name} ({profile.Description})…");
        _profile = profile;
        var port = _someService.BaseAddress.Port;
        await _someService.DisposeAsync();
        _source = _source is null ? null : await RestartAsync(_source, StartSourceAsync, ct);
        _someService = await StartSomeServiceAsync(port, ct);
        await CheckProfileAsync(ct);
    }

    public async Task<string?> ReviveAsync(CancellationToken ct)
    {
        // Same port: SomeService was told the source's address, the runner SomeService's.
        var done = new List<string>();
        if (_source is { HasExited: true } source)
        {
            done.Add($"SyncDataSource had exited and was restarted; its last output: {Last(source.RecentOutput)}");
            _source = await RestartAsync(source, StartSourceAsync, ct);
        }

        if (_someService.HasExited)
        {
            done.Add($"SomeService had exited and was restarted; its last output: {Last(_someService.RecentOutput)}");
            _someService = await RestartAsync(_someService, StartSomeServiceAsync, ct);
        }

        return done.Count == 0 ? null : string.Join(" ", done);
    }

    public HttpClient CreateSomeServiceClient(TimeSpan timeout) => _someService.CreateClient(timeout);

    /// <summary>Stops SyncDataSource (if it still runs) and starts it again on the same port.</summary>
    public async Task RestartSourceAsync(CancellationToken ct = default) => _source = await RestartAsync(_source!, StartSourceAsync, ct);

    /// <summary>Stops SomeService (if it still runs) and starts it again on the same port.</summary>
    public async Task RestartSomeServiceAsync(CancellationToken ct = default) => _someService = await RestartAsync(_someService, StartSomeServiceAsync, ct);

    private static async Task<ServiceProcess> RestartAsync(ServiceProcess service, Func<int, CancellationToken, Task<ServiceProcess>> start, CancellationToken ct)
    {
        var port = service.BaseAddress.Port;
        await service.DisposeAsync();
        return await start(port, ct);
    }

    private Task<ServiceProcess> StartSourceAsync(int port, CancellationToken ct) =>
        ServiceProcess.StartAsync("SyncDataSource", Lab.BuiltAssembly("SyncDataSource"), port, databases.SourceHost,
            WithSettings(Lab.SourceEnvironment(databases.SourceServiceDb), SourceSettings), ct);

    private Task<ServiceProcess> StartSomeServiceAsync(int port, CancellationToken ct) =>
        ServiceProcess.StartAsync("SomeService", Lab.BuiltAssembly("SomeService"), port, databases.SomeServiceHost,
            WithSettings(Lab.SomeServiceEnvironment(databases.TargetServiceDb, SourceForSomeService ?? SourceUrl!), SomeServiceSettings), ct);

    private Dictionary<string, string> WithSettings(Dictionary<string, string> environment, IReadOnlyDictionary<string, string> settings)
    {
        foreach (var (key, value) in _profile.Environment.Concat(settings))
        {
            environment[key] = value;
        }

        return environment;
    }

    /// <summary>Both services must report the settings their profile stands for: a knob the runtime ignored is a setup error.</summary>
    private async Task CheckProfileAsync(CancellationToken ct)
    {
        var wrong = new List<string>();
        var checkedServices = new[] { (_someService, SomeServiceSettings), (_source, SourceSettings) }
            .Where(s => s.Item1 is not null && !s.Item2.Keys.Intersect(RuntimeProfiles.Knobs).Any()).Select(s => s.Item1!);
        foreach (var service in checkedServices)
        {
            using var http = service.CreateClient(TimeSpan.FromSeconds(10));
            var settings = await http.GetFromJsonAsync("runtime/settings", SyncJsonContext.Default.RuntimeSettings, ct);
            if (_profile.Check(settings!) is { } why)
            {
                wrong.Add($"{service.Name}: {why}");
            }
        }

        if (wrong.Count > 0)
        {
            throw new InvalidOperationException($"The services do not run profile {_profile.Name}: {string.Join(" ", wrong)}");
        }
    }

    private static string Last(string output) => string.Join(" | ", output.Split('\n', StringSplitOptions.RemoveEmptyEntries).TakeLast(8));

    public async ValueTask DisposeAsync() => await LabDatabases.DisposeAllAsync(_someService, _source);
}
