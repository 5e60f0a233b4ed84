using System.Diagnostics;
using SyncData.Harness.Network;

namespace SyncData.Harness;

/// <summary>One of the lab's ASP.NET Core services running as its own process, on its own loopback port.</summary>
public sealed class ServiceProcess : IAsyncDisposable
{
    private const int RecentLines = 60;

    private readonly ChildProcess _process;

    public string Name { get; }
    /// <summary>The TCP address it listens on: what the other service uses.</summary>
    public Uri BaseAddress { get; }

    /// <summary>Null: a loopback service, reached at <see cref="BaseAddress"/>.</summary>
    public ServiceHost? Host { get; private init; }

    /// <summary>Where the runner reaches it: its unix socket in a lab, else its TCP address.</summary>
    public string ControlAddress => Host is { } host ? "http://unix:" + host.ControlSocket : BaseAddress.ToString();
    public int ProcessId => _process.Id;
    public bool HasExited => _process.HasExited;

    private ServiceProcess(string name, ChildProcess process, Uri baseAddress)
    {
        Name = name;
        _process = process;
        BaseAddress = baseAddress;
    }

    /// <summary>The last lines the service printed, for failure messages.</summary>
    public string RecentOutput => _process.RecentOutput;

    /// <summary>Starts `dotnet {assembly}` listening on 127.0.0.1:{port} and waits for /health.</summary>
    public static Task<ServiceProcess> StartAsync(string name, string assemblyPath, int port, IReadOnlyDictionary<string, string> environment, CancellationToken ct = default) =>
        StartAsync(name, assemblyPath, port, null, environment, ct);

    /// <summary>
    /// Starts `dotnet {assembly}` in <paramref name="host"/>'s namespace (null: here), listening on its address and
    /// control socket (null: 127.0.0.1:{port}), and waits for /health.
    /// </summary>
    public static async Task<ServiceProcess> StartAsync(string name, string assemblyPath, int port, ServiceHost? host, IReadOnlyDictionary<string, string> environment, CancellationToken ct = default)
    {
        if (!File.Exists(assemblyPath))
        {
            throw new FileNotFoundException($"{name} is not built: {assemblyPath}. Build the solution first.", assemblyPath);
        }

        var baseAddress = new Uri($"http://{host?.ListenAddress ?? "127.0.0.1"}:{port}/");
        var urls = baseAddress.ToString().TrimEnd('/');
        if (host is not null)
        {
            // A socket file left by an earlier start of the same service would make Kestrel's bind fail.
            File.Delete(host.ControlSocket);
            urls += ";http://unix:" + host.ControlSocket;
        }

        // Command-line arguments outrank appsettings.json's Urls (ASPNETCORE_URLS does not).
        var process = ChildProcess.Start("dotnet", [assemblyPath, "--urls", urls], new ChildProcessOptions
        {
            Namespace = host?.Namespace,
            WorkingDirectory = Path.GetDirectoryName(assemblyPath)!,
            Environment = Variables(environment),
            TailLines = RecentLines,
        });
        var service = new ServiceProcess(name, process, baseAddress) { Host = host };
        try
        {
            await service.WaitHealthyAsync(TimeSpan.FromSeconds(60), ct);
            return service;
        }
        catch
        {
            await service.DisposeAsync();
            throw;
        }
    }

    /// <summary>The service's environment: Production, no runtime knob inherited from this process, the caller's variables, and its owner.</summary>
    private static Dictionary<string, string?> Variables(IReadOnlyDictionary<string, string> environment)
    {
        var variables = new Dictionary<string, string?>
        {
            ["DOTNET_ENVIRONMENT"] = "Production",
            ["ASPNETCORE_ENVIRONMENT"] = "Production",
        };
        // The runtime profile is whatever the caller's environment says, never a knob inherited from this process.
        foreach (var knob in RuntimeProfiles.Knobs)
        {
            variables[knob] = null;
        }

        foreach (var (key, value) in environment)
        {
            variables[key] = value;
        }

        // Whose service this is: if this process dies without stopping it, the next lab's sweep kills it.
        variables[LabSweeper.OwnerVariable] = LabSweeper.Me;
        return variables;
    }

    public async Task WaitHealthyAsync(TimeSpan timeout, CancellationToken ct = default)
    {
        using var http = CreateClient(TimeSpan.FromSeconds(5));
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < timeout)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"{Name} exited with {_process.ExitCode} during startup:\n{RecentOutput}");
            }

            try
            {
                using var response = await http.GetAsync("health", ct);
                if (response.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException && !ct.IsCancellationRequested)
            {
            }

            await Task.Delay(100, ct);
        }

        throw new TimeoutException($"{Name} was not healthy within {timeout.TotalSeconds} s:\n{RecentOutput}");
    }

    /// <summary>An HttpClient for the runner's calls: over the control socket in a lab, else to <see cref="BaseAddress"/>.</summary>
    public HttpClient CreateClient(TimeSpan timeout) => Host is { } host
        ? UnixSocketHttp.CreateClient(host.ControlSocket, timeout)
        : new HttpClient { BaseAddress = BaseAddress, Timeout = timeout };

    /// <summary>Kills the process abruptly (SIGKILL), as a crash would.</summary>
    public Task KillAsync() => _process.KillAsync();

    /// <summary>Asks the process to stop (SIGTERM), as an orchestrator would, and waits for it.</summary>
    public async Task TerminateAsync(TimeSpan timeout)
    {
        if (_process.HasExited)
        {
            return;
        }

        await _process.SignalAsync("TERM");
        using var wait = new CancellationTokenSource(timeout);
        await _process.WaitForExitAsync(wait.Token);
    }

    public ValueTask DisposeAsync() => _process.DisposeAsync();
}
