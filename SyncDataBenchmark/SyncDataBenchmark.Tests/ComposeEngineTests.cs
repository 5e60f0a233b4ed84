using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;
using Xunit.Abstractions;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The debug stack on a real container engine, as a user brings it up: `docker-compose -f docker-compose.debug.yml -f
/// &lt;override&gt; up -d --build` through Podman's Docker-compatible socket, the services' images built from
/// SyncDataBenchmark/Dockerfile as it is. Nothing can be pulled here: scripts/stand-in-images.sh builds the images the
/// files name (the .NET SDK and ASP.NET Core bases, postgres:15) from this machine's .NET and Debian's packages, and
/// Debian's Prometheus 2.42 under its own name. The test-only override (Compose/docker-compose.lab-override.yml) swaps in
/// that Prometheus without its Prometheus 3 parts and leaves Grafana out: Grafana is in no registry this machine reaches.
/// </summary>
[Trait("Tier", "Engine")]
[LongRunning]
public sealed class ComposeEngineTests(ITestOutputHelper output)
{
    private const long SeedRows = 10_007;
    private const string Project = "syncdatabenchmark-composelab";
    private const string OtlpReceiverFlag = "--web.enable-otlp-receiver";
    private static readonly Uri SomeServiceAddress = new("http://127.0.0.1:5180/");
    private static readonly Uri SourceAddress = new("http://127.0.0.1:5190/");
    private static readonly Uri PrometheusAddress = new("http://127.0.0.1:9090/");
    private static readonly int[] PublishedPorts = [5432, 5180, 5190, 9090];

    private static string PublishedDatabase(string database) =>
        $"Host=127.0.0.1;Port=5432;Username=postgres;Password=postgres;Database={database};Pooling=false";

    [Fact]
    public async Task Debug_stack_comes_up_on_podman_syncs_verified_is_scraped_and_down_leaves_nothing()
    {
        var clock = Stopwatch.StartNew();
        LabSweeper.Sweep();
        await BuildStandInImagesAsync();
        output.WriteLine($"[{clock.Elapsed:mm\\:ss}] stand-in images ready");

        var configDirectory = Directory.CreateTempSubdirectory("syncdata-composelab-");
        try
        {
            var prometheusConfig = Path.Combine(configDirectory.FullName, "prometheus.yml");
            await File.WriteAllTextAsync(prometheusConfig, ObservabilityTests.StrippedPrometheusConfig().Config);
            var variables = new Dictionary<string, string>
            {
                ["SEED_ROWS"] = SeedRows.ToString(System.Globalization.CultureInfo.InvariantCulture),
                ["SYNCDATA_LAB_PROMETHEUS_CONFIG"] = prometheusConfig,
            };
            await AssertOverrideChangesOnlyPrometheusAndGrafanaAsync(variables);

            var engineTraces = new List<string>();
            await using (var engine = await PodmanEngine.StartAsync())
            {
                var runRoot = (await PodmanEngine.RunAsync("info", "--format", "{{.Store.RunRoot}}")).StandardOutput.Trim();
                engineTraces.AddRange([engine.Socket, runRoot]);
                var stack = new ComposeStack(engine, Project, variables);
                // A killed earlier run's stack, if any.
                await stack.DownAsync();
                AssertPublishedPortsFree();
                try
                {
                    await stack.UpAsync(TimeSpan.FromMinutes(40));
                    output.WriteLine($"[{clock.Elapsed:mm\\:ss}] docker-compose up -d --build done");
                    engineTraces.AddRange(await stack.ContainerIdsAsync());
                    Assert.Equal(PublishedPorts.Select(p => $"127.0.0.1:{p}").Order(), (await stack.PublishedHostAddressesAsync()).Order());
                    await AssertSyncVerifiesOnTheSeededTablesAsync(stack);
                    await AssertPrometheusScrapesBothAndCountsTheSyncAsync(stack);
                }
                finally
                {
                    var down = await stack.DownAsync();
                    Assert.True(down.ExitCode == 0, $"docker-compose down -v failed ({down.ExitCode}):\n{down.RecentOutput}");
                }

                var leftovers = await stack.LeftoversAsync();
                Assert.True(leftovers.Count == 0, $"docker-compose down -v left:\n{string.Join('\n', leftovers)}");
                // Superseded builds of the services' images, once a week: the build stage's layers, which a re-run
                // reuses, are dangling images too (the final image does not descend from them).
                await PodmanEngine.RunAsync("image", "prune", "--force", "--filter", "until=168h");
            }

            var running = PodmanEngine.LiveProcessesNaming(engineTraces);
            Assert.True(running.Count == 0, $"The engine's processes outlived the lab:\n{string.Join('\n', running)}");
            output.WriteLine($"[{clock.Elapsed:mm\\:ss}] down -v: no container, network or volume left; engine stopped");
        }
        finally
        {
            configDirectory.Delete(recursive: true);
        }
    }

    private async Task BuildStandInImagesAsync()
    {
        var script = Path.Combine(Lab.RepositoryRoot, "scripts", "stand-in-images.sh");
        var result = await ChildProcess.RunAsync(script, [],
            new ChildProcessOptions { WorkingDirectory = Lab.RepositoryRoot, OnLine = output.WriteLine }, TimeSpan.FromMinutes(30));
        Assert.True(result.ExitCode == 0, $"scripts/stand-in-images.sh failed ({result.ExitCode}):\n{result.RecentOutput}");
    }

    /// <summary>The override keeps the debug file's Prometheus command but for the Prometheus 3 flag, and changes no other service but Grafana.</summary>
    private static async Task AssertOverrideChangesOnlyPrometheusAndGrafanaAsync(IReadOnlyDictionary<string, string> variables)
    {
        var environment = variables.ToDictionary(v => v.Key, string? (v) => v.Value);
        var debug = await ConfigAsync(environment, ComposeStack.ComposeFile);
        var lab = await ConfigAsync(environment, ComposeStack.ComposeFile, ComposeStack.OverrideFile);
        Assert.Equal(debug.Services["prometheus"].Command.Where(a => a != OtlpReceiverFlag), lab.Services["prometheus"].Command);
        Assert.Contains(OtlpReceiverFlag, debug.Services["prometheus"].Command);
        foreach (var name in new[] { "postgres", "syncdatasource", "someservice" })
        {
            Assert.Equal(debug.Services[name].Image, lab.Services[name].Image);
            Assert.Equal(debug.Services[name].Ports, lab.Services[name].Ports);
            Assert.Equal(debug.Services[name].Environment, lab.Services[name].Environment);
        }
    }

    private static async Task<ComposeConfig> ConfigAsync(IReadOnlyDictionary<string, string?> environment, params string[] files)
    {
        var result = await ChildProcess.RunAsync(Tools.Require("docker-compose", "docker-compose"), [.. files.SelectMany(f => new[] { "-f", f }), "config"],
            new ChildProcessOptions { WorkingDirectory = Lab.RepositoryRoot, Environment = environment, KeepAllOutput = true }, TimeSpan.FromMinutes(1));
        Assert.True(result.ExitCode == 0, $"docker-compose config failed:\n{result.StandardError}");
        return ComposeConfig.Parse(result.StandardOutput);
    }

    /// <summary>The stack publishes fixed ports (on 127.0.0.1): a taken one is named rather than failing `up` obscurely.</summary>
    private static void AssertPublishedPortsFree()
    {
        foreach (var port in PublishedPorts)
        {
            try
            {
                var listener = new TcpListener(IPAddress.Loopback, port);
                listener.Start();
                listener.Stop();
            }
            catch (SocketException ex)
            {
                Assert.Fail($"127.0.0.1:{port} is taken ({ex.SocketErrorCode}); docker-compose.debug.yml publishes it.");
            }
        }
    }

    /// <summary>GET /sync?f=NpgsqlCopy&amp;i=NpgsqlCopy on the published port: from an empty target to the seeded source's rows, verified.</summary>
    private async Task AssertSyncVerifiesOnTheSeededTablesAsync(ComposeStack stack)
    {
        await AssertDatabasesAreUtf8Async();
        var source = await Lab.ReadChecksumAsync(PublishedDatabase(Lab.SourceDatabase));
        var before = await Lab.ReadChecksumAsync(PublishedDatabase(Lab.TargetDatabase));
        Assert.Equal(SeedRows, source.Rows);
        Assert.NotEqual(source, before);

        using var client = new HttpClient { BaseAddress = SomeServiceAddress, Timeout = TimeSpan.FromMinutes(10) };
        await WaitReadyAsync(stack, "someservice", client);
        using (var sourceClient = new HttpClient { BaseAddress = SourceAddress, Timeout = TimeSpan.FromMinutes(1) })
        {
            await WaitReadyAsync(stack, "syncdatasource", sourceClient);
        }

        using var response = await new SomeServiceClient(client).TriggerAsync("NpgsqlCopy", "NpgsqlCopy", wait: true);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"GET /sync answered {(int)response.StatusCode}: {body}\n{await stack.LogsAsync("someservice")}");
        var run = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
        Assert.True(run.Verified, $"{run.Status}: {run.Error}");
        Assert.Equal(SeedRows, run.Rows);
        Assert.Equal(source, run.Source);
        Assert.Equal(source, await Lab.ReadChecksumAsync(PublishedDatabase(Lab.TargetDatabase)));
        output.WriteLine($"NpgsqlCopy × NpgsqlCopy through the stack: {run.Rows} rows verified in {run.DurationMs} ms");
        await AssertServicesLoggedNoErrorAsync(stack);
    }

    /// <summary>
    /// The official image's initdb makes UTF8 databases (its LANG); a stand-in without a locale makes SQL_ASCII ones,
    /// which store any bytes and so let a run verify while the server would not behave as the users' does.
    /// </summary>
    private static async Task AssertDatabasesAreUtf8Async()
    {
        await using var connection = new Npgsql.NpgsqlConnection(PublishedDatabase("postgres"));
        await connection.OpenAsync();
        await using var command = new Npgsql.NpgsqlCommand(
            "select string_agg(datname || ' ' || pg_encoding_to_char(encoding), ', ' order by datname) from pg_database where datname in ('source', 'target')",
            connection);
        Assert.Equal("source UTF8, target UTF8", await command.ExecuteScalarAsync());
    }

    /// <summary>
    /// Neither service logged an error on the way (ASP.NET Core's "fail:"/"crit:" levels, or the runtime's "Error:" lines,
    /// e.g. Npgsql looking for Kerberos, which the .NET images do not carry).
    /// </summary>
    private static async Task AssertServicesLoggedNoErrorAsync(ComposeStack stack)
    {
        foreach (var service in new[] { "syncdatasource", "someservice" })
        {
            var errors = (await stack.LogsAsync(service, tail: null)).Split('\n')
                .Where(l => l.Contains("| fail:", StringComparison.Ordinal) || l.Contains("| crit:", StringComparison.Ordinal)
                            || l.Contains("| Error:", StringComparison.Ordinal) || l.Contains("Cannot load library", StringComparison.Ordinal))
                .ToArray();
            Assert.True(errors.Length == 0, $"{service} logged:\n{string.Join('\n', errors)}");
        }
    }

    private static async Task WaitReadyAsync(ComposeStack stack, string service, HttpClient client)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(3);
        while (true)
        {
            try
            {
                using var ready = await client.GetAsync("health/ready");
                if (ready.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            if (DateTime.UtcNow > deadline)
            {
                Assert.Fail($"{service} on {client.BaseAddress} not ready within 3 minutes:\n{await stack.LogsAsync(service)}");
            }

            await Task.Delay(500);
        }
    }

    /// <summary>The stack's own Prometheus: both services' targets up, and the run just made counted under SomeService's job.</summary>
    private async Task AssertPrometheusScrapesBothAndCountsTheSyncAsync(ComposeStack stack)
    {
        using var prometheus = new HttpClient { BaseAddress = PrometheusAddress, Timeout = TimeSpan.FromSeconds(30) };
        await PollAsync(stack, "both services' targets up", async () =>
        {
            using var targets = JsonDocument.Parse(await prometheus.GetStringAsync("api/v1/targets"));
            var health = targets.RootElement.GetProperty("data").GetProperty("activeTargets").EnumerateArray()
                .ToDictionary(t => t.GetProperty("labels").GetProperty("job").GetString()!, t => t.GetProperty("health").GetString());
            return (health.GetValueOrDefault("SomeService") == "up" && health.GetValueOrDefault("SyncDataSource") == "up",
                string.Join(", ", health.Select(h => $"{h.Key}={h.Value}")));
        });

        const string labels = """job="SomeService",instance="someservice:5180",fetch="NpgsqlCopy",insert="NpgsqlCopy" """;
        foreach (var (query, expected) in new[]
                 {
                     ($"sync_runs_total{{{labels.Trim()},status=\"succeeded\"}}", 1L),
                     ($"sync_rows_written_total{{{labels.Trim()}}}", SeedRows),
                 })
        {
            await PollAsync(stack, $"{query} = {expected}", async () =>
            {
                using var answer = JsonDocument.Parse(await prometheus.GetStringAsync("api/v1/query?query=" + Uri.EscapeDataString(query)));
                var values = answer.RootElement.GetProperty("data").GetProperty("result").EnumerateArray()
                    .Select(r => r.GetProperty("value")[1].GetString()).ToArray();
                return (values is [{ } value] && value == expected.ToString(System.Globalization.CultureInfo.InvariantCulture), $"[{string.Join(", ", values)}]");
            });
        }

        output.WriteLine("Prometheus: SomeService and SyncDataSource up; sync_runs_total and sync_rows_written_total count the run");
    }

    /// <summary>Polls a condition for up to three minutes (scrapes start after the first interval, and the machine may be busy).</summary>
    private static async Task PollAsync(ComposeStack stack, string what, Func<Task<(bool Done, string Seen)>> condition)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(3);
        var seen = "";
        while (DateTime.UtcNow < deadline)
        {
            try
            {
                (var done, seen) = await condition();
                if (done)
                {
                    return;
                }
            }
            catch (HttpRequestException ex)
            {
                seen = ex.Message;
            }

            await Task.Delay(1000);
        }

        Assert.Fail($"Prometheus: no {what} within 3 minutes; last seen {seen}\n{await stack.LogsAsync("prometheus")}");
    }
}
