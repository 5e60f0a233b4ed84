using System.Net.Http.Json;
using SyncData.Harness;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// SyncDataSource (unless --source-url names a running one) and SomeService as Release processes the runner starts,
/// under a runtime profile, each on its host (<see cref="LabDatabases.SourceHost"/>; loopback ports on one host).
/// </summary>
public sealed class StartedServices(LabDatabases databases, Uri? userSource) : ILabServices
{
    private ServiceProcess? _source;
    private ServiceProcess _someService = null!;
    private RuntimeProfile _profile = null!;

    public string SomeServiceAddress => _someService.ControlAddress;
    public Uri? SourceUrl => _source?.BaseAddress ?? userSource;
    public bool StartedByRunner => true;
    public string? SomeServiceOutput => Last(_someService.RecentOutput);

    public static async Task<StartedServices> StartAsync(LabDatabases databases, Uri? userSource, RuntimeProfile profile, Action<string> say, CancellationToken ct)
    {
        var services = new StartedServices(databases, userSource) { _profile = profile };
        try
        {
            if (userSource is not null)
            {
                say($"Using SyncDataSource at {userSource}.");
            }
            else
            {
                say($"Starting SyncDataSource ({Lab.BuildConfiguration}, profile {profile.Name})…");
                services._source = await services.StartSourceAsync(LocalPostgres.FreePort(), ct);
            }

            say($"Starting SomeService ({Lab.BuildConfiguration}, profile {profile.Name})…");
            services._someService = await services.StartSomeServiceAsync(LocalPostgres.FreePort(), ct);
            await services.CheckProfileAsync(ct);
            return services;
        }
        catch
        {
            await services.DisposeAsync();
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

    private static async Task<ServiceProcess> RestartAsync(ServiceProcess service, Func<int, CancellationToken, Task<ServiceProcess>> start, CancellationToken ct)
    {
        var port = service.BaseAddress.Port;
        await service.DisposeAsync();
        return await start(port, ct);
    }

    private Task<ServiceProcess> StartSourceAsync(int port, CancellationToken ct) =>
        ServiceProcess.StartAsync("SyncDataSource", Lab.BuiltAssembly("SyncDataSource"), port, databases.SourceHost,
            WithProfile(Lab.SourceEnvironment(databases.SourceServiceDb)), ct);

    private Task<ServiceProcess> StartSomeServiceAsync(int port, CancellationToken ct) =>
        ServiceProcess.StartAsync("SomeService", Lab.BuiltAssembly("SomeService"), port, databases.SomeServiceHost,
            WithProfile(Lab.SomeServiceEnvironment(databases.TargetServiceDb, SourceUrl!)), ct);

    private Dictionary<string, string> WithProfile(Dictionary<string, string> environment)
    {
        foreach (var (key, value) in _profile.Environment)
        {
            environment[key] = value;
        }

        return environment;
    }

    /// <summary>Both services must report the settings their profile stands for: a knob the runtime ignored is a setup error.</summary>
    private async Task CheckProfileAsync(CancellationToken ct)
    {
        var wrong = new List<string>();
        foreach (var service in new[] { _someService, _source }.OfType<ServiceProcess>())
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
