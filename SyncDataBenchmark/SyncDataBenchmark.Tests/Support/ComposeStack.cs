using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// docker-compose.debug.yml with the lab's test-only override (Compose/docker-compose.lab-override.yml), run by Debian's
/// docker-compose through an engine's socket, as a user runs it: `docker-compose -f … -f … up -d --build`.
/// </summary>
internal sealed class ComposeStack(PodmanEngine engine, string project, IReadOnlyDictionary<string, string> variables)
{
    public const string ComposeFile = "docker-compose.debug.yml";

    public static readonly string OverrideFile =
        Path.Combine(Lab.RepositoryRoot, "SyncDataBenchmark", "SyncDataBenchmark.Tests", "Compose", "docker-compose.lab-override.yml");

    public string Project => project;

    /// <summary>Builds the services' images from SyncDataBenchmark/Dockerfile and starts the stack, running the healthchecks the engine does not.</summary>
    public async Task UpAsync(TimeSpan timeout)
    {
        var up = RunAsync(timeout, "up", "-d", "--build");
        while (!up.IsCompleted)
        {
            await Task.WhenAny(up, Task.Delay(TimeSpan.FromSeconds(2)));
            if (!up.IsCompleted)
            {
                await PodmanEngine.RunPendingHealthchecksAsync(project);
            }
        }

        var result = await up;
        Assert.True(result.ExitCode == 0, $"docker-compose up failed ({result.ExitCode}):\n{result.RecentOutput}\nengine:\n{engine.RecentOutput}");
    }

    public async Task<ChildProcess.Result> DownAsync() => await RunAsync(TimeSpan.FromMinutes(5), "down", "-v", "--remove-orphans");

    /// <summary>The project's containers, networks and volumes the engine still has, one line each.</summary>
    public async Task<IReadOnlyList<string>> LeftoversAsync()
    {
        var label = $"label=com.docker.compose.project={project}";
        var lines = new List<string>();
        foreach (var (kind, arguments) in new (string, string[])[]
                 {
                     ("container", ["ps", "--all", "--filter", label, "--format", "{{.Names}}"]),
                     ("network", ["network", "ls", "--filter", label, "--format", "{{.Name}}"]),
                     ("volume", ["volume", "ls", "--filter", label, "--format", "{{.Name}}"]),
                 })
        {
            var listed = await PodmanEngine.RunAsync(arguments);
            Assert.True(listed.ExitCode == 0, $"podman {string.Join(' ', arguments)}: {listed.RecentOutput}");
            lines.AddRange(listed.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(name => $"{kind} {name}"));
        }

        return lines;
    }

    /// <summary>The host side of every port the engine publishes for the project's containers, e.g. 127.0.0.1:5180.</summary>
    public async Task<IReadOnlyList<string>> PublishedHostAddressesAsync()
    {
        var listed = await PodmanEngine.RunAsync("ps", "--filter", $"label=com.docker.compose.project={project}", "--format", "{{.Ports}}");
        Assert.True(listed.ExitCode == 0, listed.RecentOutput);
        // "127.0.0.1:5180->5180/tcp, …" per container.
        return listed.StandardOutput.Split(['\n', ','], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(mapping => mapping.Split("->")[0]).ToArray();
    }

    /// <summary>The ids of the project's containers (their conmon processes name them).</summary>
    public async Task<IReadOnlyList<string>> ContainerIdsAsync()
    {
        var listed = await PodmanEngine.RunAsync("ps", "--all", "--no-trunc", "--filter", $"label=com.docker.compose.project={project}", "--format", "{{.ID}}");
        return listed.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries);
    }

    /// <summary>A service's log, its last <paramref name="tail"/> lines or (null) all of it.</summary>
    public async Task<string> LogsAsync(string service, int? tail = 40)
    {
        var result = await RunAsync(TimeSpan.FromMinutes(1), "logs", "--no-color", tail is { } lines ? $"--tail={lines}" : "--tail=all", service);
        return result.StandardOutput + result.StandardError;
    }

    private async Task<ChildProcess.Result> RunAsync(TimeSpan timeout, params string[] arguments)
    {
        var environment = new Dictionary<string, string?>(variables.ToDictionary(v => v.Key, string? (v) => v.Value))
        {
            ["DOCKER_HOST"] = engine.DockerHost,
            ["COMPOSE_PROJECT_NAME"] = project,
        };
        var options = new ChildProcessOptions { WorkingDirectory = Lab.RepositoryRoot, Environment = environment, KeepAllOutput = true, TailLines = 200 };
        try
        {
            return await ChildProcess.RunAsync(Tools.Require("docker-compose", "docker-compose"),
                ["-f", ComposeFile, "-f", OverrideFile, .. arguments], options, timeout);
        }
        catch (TimeoutException)
        {
            Assert.Fail($"docker-compose {string.Join(' ', arguments)} did not finish within {timeout}.\nengine:\n{engine.RecentOutput}");
            throw;
        }
    }
}
