using System.Diagnostics;
using System.Text.Json;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Debian's Prometheus 2.42 on a free loopback port with a throwaway TSDB: a PromQL parser with an HTTP API.</summary>
internal sealed class PrometheusServer : IAsyncDisposable
{
    private readonly ChildProcess _process;
    private readonly DirectoryInfo _directory;

    private PrometheusServer(ChildProcess process, DirectoryInfo directory, Uri baseAddress)
    {
        _process = process;
        _directory = directory;
        BaseAddress = baseAddress;
    }

    public Uri BaseAddress { get; }
    public string Version { get; private set; } = "";

    public static async Task<PrometheusServer> StartAsync(string config)
    {
        var directory = Directory.CreateTempSubdirectory("syncdata-prometheus-");
        var configPath = Path.Combine(directory.FullName, "prometheus.yml");
        await File.WriteAllTextAsync(configPath, config);
        var port = LocalPostgres.FreePort();
        var binary = FindOnPath("prometheus") ?? throw new InvalidOperationException("unreachable");
        var process = ChildProcess.Start(binary,
            [
                $"--config.file={configPath}", $"--storage.tsdb.path={Path.Combine(directory.FullName, "data")}",
                $"--web.listen-address=127.0.0.1:{port}", "--log.level=warn",
            ],
            new ChildProcessOptions { WorkingDirectory = directory.FullName });
        var server = new PrometheusServer(process, directory, new Uri($"http://127.0.0.1:{port}/"));

        using var http = new HttpClient { BaseAddress = server.BaseAddress, Timeout = TimeSpan.FromSeconds(2) };
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (server._process.HasExited || clock.Elapsed > TimeSpan.FromSeconds(20))
            {
                var output = server._process.RecentOutput;
                await server.DisposeAsync();
                Assert.Fail($"prometheus did not become ready on {server.BaseAddress}:\n{output}");
            }

            try
            {
                using var ready = await http.GetAsync("-/ready");
                if (ready.IsSuccessStatusCode)
                {
                    using var info = JsonDocument.Parse(await http.GetStringAsync("api/v1/status/buildinfo"));
                    server.Version = info.RootElement.GetProperty("data").GetProperty("version").GetString() ?? "";
                    return server;
                }
            }
            catch (HttpRequestException)
            {
            }
            catch (TaskCanceledException)
            {
            }

            await Task.Delay(100);
        }
    }

    private static string? FindOnPath(string name)
    {
        var found = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Select(d => Path.Combine(d, name)).FirstOrDefault(File.Exists);
        Assert.True(found is not null, $"'{name}' is not installed: apt-get install -y prometheus");
        return found;
    }

    public async ValueTask DisposeAsync()
    {
        await _process.DisposeAsync();
        _directory.Delete(recursive: true);
    }
}
