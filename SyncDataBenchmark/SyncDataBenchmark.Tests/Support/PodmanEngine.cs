using System.Net.Sockets;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A Docker-compatible engine for the compose lab: `podman system service` on a socket of its own, run through
/// scripts/stand-in/podman.sh (the lab's Podman settings and storage). Disposing stops it.
/// </summary>
internal sealed class PodmanEngine : IAsyncDisposable
{
    public static readonly string Script = Path.Combine(Lab.RepositoryRoot, "scripts", "stand-in", "podman.sh");

    private readonly ChildProcess _service;
    private readonly DirectoryInfo _directory;

    private PodmanEngine(ChildProcess service, DirectoryInfo directory, string socket)
    {
        _service = service;
        _directory = directory;
        Socket = socket;
    }

    public string Socket { get; }

    /// <summary>What docker-compose is given as DOCKER_HOST.</summary>
    public string DockerHost => "unix://" + Socket;

    public int ServiceProcessId => _service.Id;

    public string RecentOutput => _service.RecentOutput;

    public static async Task<PodmanEngine> StartAsync()
    {
        var directory = Directory.CreateTempSubdirectory("syncdata-podman-");
        var socket = Path.Combine(directory.FullName, "podman.sock");
        // The owner variable lets the lab's sweeper stop an engine whose test host was killed.
        var service = ChildProcess.Start(Script, ["system", "service", "--time=0", "unix://" + socket],
            new ChildProcessOptions { Environment = new Dictionary<string, string?> { [LabSweeper.OwnerVariable] = LabSweeper.Me } });
        var engine = new PodmanEngine(service, directory, socket);
        var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(2);
        while (!await engine.AnswersPingAsync())
        {
            if (service.HasExited || DateTime.UtcNow > deadline)
            {
                var output = service.RecentOutput;
                await engine.DisposeAsync();
                Assert.Fail($"podman system service did not answer on {socket}:\n{output}");
            }

            await Task.Delay(250);
        }

        return engine;
    }

    /// <summary>GET /_ping on the socket, as a Docker client's first request.</summary>
    private async Task<bool> AnswersPingAsync()
    {
        if (!File.Exists(Socket))
        {
            return false;
        }

        using var handler = new SocketsHttpHandler
        {
            ConnectCallback = async (_, ct) =>
            {
                var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                await socket.ConnectAsync(new UnixDomainSocketEndPoint(Socket), ct);
                return new NetworkStream(socket, ownsSocket: true);
            },
        };
        using var http = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(10) };
        try
        {
            return await http.GetStringAsync("http://podman/_ping") == "OK";
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException or SocketException)
        {
            return false;
        }
    }

    /// <summary>The podman command line on the same storage and settings (not through the socket).</summary>
    public static async Task<ChildProcess.Result> RunAsync(params string[] arguments) =>
        await ChildProcess.RunAsync(Script, arguments, new ChildProcessOptions { KeepAllOutput = true }, TimeSpan.FromMinutes(5));

    /// <summary>
    /// Podman schedules healthchecks with systemd timers; without systemd (as on this machine) none ever runs, a
    /// container stays "starting" and `depends_on: condition: service_healthy` waits for ever. This does the timers'
    /// job: one check of each of the project's containers still starting.
    /// </summary>
    public static async Task RunPendingHealthchecksAsync(string project)
    {
        var starting = await RunAsync("ps", "--filter", $"label=com.docker.compose.project={project}", "--filter", "health=starting", "--format", "{{.ID}}");
        foreach (var id in starting.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            await RunAsync("healthcheck", "run", id);
        }
    }

    /// <summary>Live (not zombie) processes whose command line names one of these strings: what the engine left running.</summary>
    public static IReadOnlyList<string> LiveProcessesNaming(IReadOnlyCollection<string> needles)
    {
        var found = new List<string>();
        foreach (var directory in Directory.GetDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), out var pid) || pid == Environment.ProcessId)
            {
                continue;
            }

            try
            {
                var commandLine = File.ReadAllText(Path.Combine(directory, "cmdline")).Replace('\0', ' ').Trim();
                var state = File.ReadAllText(Path.Combine(directory, "stat")).Split(") ").Last().Split(' ')[0];
                if (state != "Z" && needles.Any(n => commandLine.Contains(n, StringComparison.Ordinal)))
                {
                    found.Add($"{pid} {commandLine}");
                }
            }
            catch (IOException)
            {
                // Gone meanwhile.
            }
        }

        return found;
    }

    /// <summary>Stops the service as an operator would (TERM), then makes sure.</summary>
    public async ValueTask DisposeAsync()
    {
        if (!_service.HasExited)
        {
            await _service.SignalAsync("TERM");
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            try
            {
                await _service.WaitForExitAsync(grace.Token);
            }
            catch (OperationCanceledException)
            {
            }
        }

        await _service.DisposeAsync();
        _directory.Delete(recursive: true);
    }
}
