using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;
using Xunit.Abstractions;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The debug stack's files (docker-compose.debug.yml, prometheus/, grafana/, sql/docker-init/) checked with the tools
/// this machine has: Debian's docker-compose 1.29 (no Docker engine), Prometheus 2.42 and promtool (no OTLP receiver),
/// and the real services pushing OTLP to an in-test receiver. What cannot be shown here: Prometheus 3 ingesting the
/// push and Grafana drawing non-empty panels.
/// </summary>
public sealed class ObservabilityTests(ITestOutputHelper output)
{
    private const string ComposeFile = "docker-compose.debug.yml";
    private const string PrometheusConfig = "prometheus/prometheus.yml";
    private const string DatasourceFile = "grafana/provisioning/datasources/prometheus.yml";
    private const string DashboardProviderFile = "grafana/provisioning/dashboards/syncdata.yml";
    private const string DashboardsDirectory = "grafana/dashboards";
    private const string InitScript = "sql/docker-init/10-source-and-target.sh";

    private static string Root => Lab.RepositoryRoot;

    // ---------------------------------------------------------------- (a) docker-compose

    [Fact]
    public async Task Compose_file_is_valid_and_wires_services_to_postgres_and_prometheus_otlp()
    {
        var compose = await ComposeConfigAsync();

        Assert.Equal(["grafana", "postgres", "prometheus", "someservice", "syncdatasource"], compose.Services.Keys.Order());

        var prometheus = compose.Services["prometheus"];
        Assert.Matches(@"^prom/prometheus:v3\.", prometheus.Image);
        Assert.Contains("--web.enable-otlp-receiver", prometheus.Command);
        Assert.Contains("127.0.0.1:9090:9090/tcp", prometheus.Ports);
        Assert.Contains($"{Path.Combine(Root, PrometheusConfig)}:/etc/prometheus/prometheus.yml:ro", prometheus.Volumes);

        var postgres = compose.Services["postgres"];
        Assert.Matches(@"^postgres:1[67]", postgres.Image);
        Assert.Contains($"{Path.Combine(Root, "sql", "docker-init")}:/docker-entrypoint-initdb.d:ro", postgres.Volumes);
        Assert.Contains($"{Path.Combine(Root, "sql")}:/sql:ro", postgres.Volumes);
        Assert.Equal("postgres", postgres.Environment["POSTGRES_PASSWORD"]);

        foreach (var (name, project, port, database) in new[]
                 {
                     ("syncdatasource", "SyncDataSource", 5190, "Source"),
                     ("someservice", "SomeService", 5180, "Target"),
                 })
        {
            var service = compose.Services[name];
            Assert.Equal(Path.Combine(Root, "SyncDataBenchmark"), service.BuildContext);
            Assert.Equal($"{project}/Dockerfile", service.Dockerfile);
            AssertDockerfileCopiesExist(Path.Combine(service.BuildContext!, service.Dockerfile!), service.BuildContext!);
            Assert.Contains($"127.0.0.1:{port}:{port}/tcp", service.Ports);
            // appsettings.json's Urls (127.0.0.1) outranks ASPNETCORE_URLS; the unprefixed URLS variable does not lose.
            Assert.Equal($"http://0.0.0.0:{port}", service.Environment["URLS"]);
            Assert.Contains($"Host=postgres;Port=5432;", service.Environment[$"ConnectionStrings__{database}"]);
            Assert.Equal("http://prometheus:9090/api/v1/otlp", service.Environment["OTEL_EXPORTER_OTLP_ENDPOINT"]);
            Assert.Equal("http://prometheus:9090/api/v1/otlp/v1/metrics", service.Environment["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"]);
            Assert.Equal("http/protobuf", service.Environment["OTEL_EXPORTER_OTLP_PROTOCOL"]);
            Assert.Equal("cumulative", service.Environment["OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE"]);
        }

        Assert.Equal("http://syncdatasource:5190", compose.Services["someservice"].Environment["Sync__SourceBaseUrl"]);
        Assert.Contains("127.0.0.1:5180:5180/tcp", compose.Services["someservice"].Ports);

        var grafana = compose.Services["grafana"];
        Assert.Equal("true", grafana.Environment["GF_AUTH_ANONYMOUS_ENABLED"]);
        Assert.Equal("Viewer", grafana.Environment["GF_AUTH_ANONYMOUS_ORG_ROLE"]);
        Assert.Contains("127.0.0.1:3000:3000/tcp", grafana.Ports);
        Assert.Contains($"{Path.Combine(Root, "grafana", "provisioning")}:/etc/grafana/provisioning:ro", grafana.Volumes);
        Assert.Contains($"{Path.Combine(Root, DashboardsDirectory)}:/var/lib/grafana/dashboards:ro", grafana.Volumes);
        Assert.Contains("path: /var/lib/grafana/dashboards", File.ReadAllText(Path.Combine(Root, DashboardProviderFile)));
        Assert.True(File.Exists(Path.Combine(Root, DashboardsDirectory, Path.GetFileName(grafana.Environment["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]))));

        // `up -d postgres prometheus grafana` (services on the host with dotnet run) pulls in nothing else.
        string[] infrastructure = ["postgres", "prometheus", "grafana"];
        Assert.All(infrastructure, name => Assert.All(compose.Services[name].DependsOn, d => Assert.Contains(d, infrastructure)));
        Assert.Equal(["postgres", "prometheus", "syncdatasource"], compose.Services["someservice"].DependsOn.Order());

        // Every bind-mounted host path exists.
        foreach (var volume in compose.Services.Values.SelectMany(s => s.Volumes).Where(v => v.StartsWith('/')))
        {
            var hostPath = volume.Split(':')[0];
            Assert.True(File.Exists(hostPath) || Directory.Exists(hostPath), $"{ComposeFile} mounts {hostPath}, which does not exist.");
        }

        // The init script is executable in git (the postgres entrypoint runs executable *.sh, sources the others).
        var (_, mode, _) = await RunAsync("git", ["ls-files", "--stage", InitScript], Root, "git");
        Assert.StartsWith("100755", mode);
    }

    private static void AssertDockerfileCopiesExist(string dockerfile, string context)
    {
        Assert.True(File.Exists(dockerfile), $"{dockerfile} is missing.");
        var ignored = File.ReadAllLines(Path.Combine(context, ".dockerignore"))
            .Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')).ToArray();
        var copies = File.ReadAllLines(dockerfile)
            .Where(l => l.StartsWith("COPY ", StringComparison.Ordinal) && !l.Contains("--from=", StringComparison.Ordinal))
            .ToArray();
        Assert.NotEmpty(copies);
        foreach (var copy in copies)
        {
            var parts = copy.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            foreach (var source in parts[1..^1])
            {
                var path = Path.Combine(context, source);
                Assert.True(File.Exists(path) || Directory.Exists(path), $"{dockerfile}: {copy} — {source} is not in the build context {context}.");
                Assert.DoesNotContain(ignored, i => source.TrimEnd('/').Equals(i.TrimEnd('/'), StringComparison.Ordinal));
            }
        }
    }

    // ---------------------------------------------------------------- (b) dashboards

    [Fact]
    public void Dashboards_have_fixed_uids_and_every_query_uses_the_provisioned_datasource()
    {
        var datasourceUid = ProvisionedDatasourceUid();
        var dashboards = Dashboards.Load(Path.Combine(Root, DashboardsDirectory));

        var byTitle = dashboards.ToDictionary(d => d.Title);
        Assert.Equal("KdDACDp4z", byTitle["ASP.NET Core"].Uid);
        Assert.Equal("syncdata-sync-runs", byTitle["Sync runs"].Uid);
        Assert.Equal(dashboards.Count, dashboards.Select(d => d.Uid).Distinct().Count());

        foreach (var dashboard in dashboards)
        {
            Assert.NotEmpty(dashboard.Queries);
            Assert.Equal(dashboard.Panels.Count, dashboard.Panels.Select(p => p.Id).Distinct().Count());
            foreach (var panel in dashboard.Panels.Where(p => p.Type != "row"))
            {
                Assert.True(panel.DatasourceUid == datasourceUid, $"{dashboard.Title} / {panel.Title}: panel datasource uid '{panel.DatasourceUid}', expected '{datasourceUid}'.");
                Assert.NotEmpty(panel.Targets);
            }

            foreach (var query in dashboard.Queries)
            {
                Assert.True(query.DatasourceUid == datasourceUid, $"{dashboard.Title} / {query.Where}: datasource uid '{query.DatasourceUid}', expected '{datasourceUid}'.");
            }
        }

        // Each run's fetch × insert is marked over time on the "Sync runs" dashboard.
        var runs = byTitle["Sync runs"];
        Assert.Contains(runs.Queries, q => q.Kind == QueryKind.Annotation && q.Expr.Contains("sync_run_in_progress", StringComparison.Ordinal));
        Assert.Contains(runs.Panels, p => p.Type == "state-timeline" && p.Targets.Any(t => t.Contains("sync_run_in_progress", StringComparison.Ordinal)));
    }

    // ---------------------------------------------------------------- (c) every PromQL expression parses

    [Fact]
    public async Task Every_dashboard_query_parses_in_prometheus()
    {
        var dashboards = Dashboards.Load(Path.Combine(Root, DashboardsDirectory));
        await using var prometheus = await PrometheusServer.StartAsync(StrippedPrometheusConfig().Config);
        using var http = new HttpClient { BaseAddress = prometheus.BaseAddress, Timeout = TimeSpan.FromSeconds(10) };

        var checkedCount = 0;
        foreach (var dashboard in dashboards)
        {
            foreach (var query in dashboard.Queries)
            {
                var expr = Dashboards.Substitute(query.Expr);
                string url;
                if (query.Kind == QueryKind.Variable)
                {
                    var labelValues = Regex.Match(expr, @"^label_values\((?:(?<selector>.+),\s*)?(?<label>[a-zA-Z_][a-zA-Z0-9_]*)\)$");
                    Assert.True(labelValues.Success, $"{dashboard.Title} / {query.Where}: only label_values(...) variables are used, got {expr}");
                    url = $"api/v1/label/{labelValues.Groups["label"].Value}/values"
                          + (labelValues.Groups["selector"].Success ? "?match[]=" + Uri.EscapeDataString(labelValues.Groups["selector"].Value) : "");
                }
                else
                {
                    url = "api/v1/query?query=" + Uri.EscapeDataString(expr);
                }

                using var response = await http.GetAsync(url);
                var body = await response.Content.ReadAsStringAsync();
                using var json = JsonDocument.Parse(body);
                Assert.True(json.RootElement.GetProperty("status").GetString() == "success",
                    $"{dashboard.Title} / {query.Where}: Prometheus {prometheus.Version} rejected\n  {expr}\n  {body}");
                checkedCount++;
            }
        }

        output.WriteLine($"{checkedCount} dashboard expressions (panel targets, annotations, variables) parsed by Prometheus {prometheus.Version}.");
        Assert.Equal(dashboards.Sum(d => d.Queries.Count), checkedCount);
        Assert.True(checkedCount >= 30, $"only {checkedCount} expressions found");
    }

    // ---------------------------------------------------------------- (d) promtool

    [Fact]
    public async Task Prometheus_config_passes_promtool_apart_from_the_otlp_block_that_2_42_does_not_know()
    {
        var promtool = RequireTool("promtool", "prometheus");
        var directory = Directory.CreateTempSubdirectory("syncdata-promtool-");
        try
        {
            // As written: Prometheus 2.42 knows no `otlp:` section, and that must be the only complaint.
            var (fullExit, fullOut, fullErr) = await RunAsync(promtool, ["check", "config", Path.Combine(Root, PrometheusConfig)], Root, "prometheus");
            var complaint = fullOut + fullErr;
            Assert.NotEqual(0, fullExit);
            Assert.Contains("field otlp not found", complaint);
            Assert.Single(Regex.Matches(complaint, @"line \d+: field \w+ not found"));

            // Everything else, checked by promtool.
            var stripped = StrippedPrometheusConfig();
            var path = Path.Combine(directory.FullName, "prometheus.yml");
            await File.WriteAllTextAsync(path, stripped.Config);
            var (exit, stdout, stderr) = await RunAsync(promtool, ["check", "config", path], Root, "prometheus");
            Assert.True(exit == 0, stdout + stderr);
            Assert.Contains("SUCCESS", stdout + stderr);

            // The otlp block itself, against the keys and values Prometheus v3.5.0 accepts (config/config.go OTLPConfig).
            string[] known =
            [
                "promote_all_resource_attributes", "promote_resource_attributes", "ignore_resource_attributes",
                "translation_strategy", "keep_identifying_resource_attributes", "convert_histograms_to_nhcb",
            ];
            Assert.NotEmpty(stripped.OtlpKeys);
            Assert.All(stripped.OtlpKeys.Keys, k => Assert.Contains(k, known));
            Assert.Equal("UnderscoreEscapingWithSuffixes", stripped.OtlpKeys["translation_strategy"]);
            Assert.False(stripped.OtlpKeys.ContainsKey("promote_all_resource_attributes") && stripped.OtlpKeys.ContainsKey("promote_resource_attributes"));
            var promoted = stripped.OtlpList("promote_resource_attributes");
            Assert.Contains("service.instance.id", promoted);
            Assert.Equal(promoted.Count, promoted.Distinct().Count());
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    // ---------------------------------------------------------------- names: the services' real instruments

    [Theory]
    // Reference cases from github.com/prometheus/otlptranslator metric_namer_test.go (the version Prometheus v3.5.0 uses).
    [InlineData("system.filesystem.usage", "By", OtlpType.Gauge, "system_filesystem_usage_bytes")]
    [InlineData("system.io", "By", OtlpType.MonotonicSum, "system_io_bytes_total")]
    [InlineData("network_transmitted_bytes_total", "By", OtlpType.MonotonicSum, "network_transmitted_bytes_total")]
    [InlineData("system.network.dropped", "{packets}", OtlpType.Gauge, "system_network_dropped")]
    [InlineData("system.network.dropped", "{packets}", OtlpType.MonotonicSum, "system_network_dropped_total")]
    [InlineData("system.network.packets.dropped", "packets", OtlpType.MonotonicSum, "system_network_packets_dropped_total")]
    [InlineData("hw.gpu.memory.utilization", "1", OtlpType.Gauge, "hw_gpu_memory_utilization_ratio")]
    [InlineData("objects", "1", OtlpType.MonotonicSum, "objects_total")]
    [InlineData("astro.light.speed_limit", "m/s", OtlpType.Gauge, "astro_light_speed_limit_meters_per_second")]
    [InlineData("active_directory.ds.replication.object.rate", "{objects}/s", OtlpType.Gauge, "active_directory_ds_replication_object_rate_per_second")]
    [InlineData("mongodbatlas.process.oplog.rate", "GiBy/h", OtlpType.Gauge, "mongodbatlas_process_oplog_rate_gibibytes_per_hour")]
    [InlineData("bigip.virtual_server.request.count", "{requests}", OtlpType.MonotonicSum, "bigip_virtual_server_request_count_total")]
    [InlineData("test.metric.no_unit", "", OtlpType.Gauge, "test_metric_no_unit")]
    // The lab's own: non-monotonic sums (up-down counters) are gauges, without _total; "total" inside a counter's
    // name moves to the end.
    [InlineData("sync.run.in_progress", "{run}", OtlpType.NonMonotonicSum, "sync_run_in_progress")]
    [InlineData("dotnet.gc.heap.total_allocated", "By", OtlpType.MonotonicSum, "dotnet_gc_heap_allocated_bytes_total")]
    public void Name_translation_matches_prometheus(string name, string unit, OtlpType type, string expected) =>
        Assert.Equal(expected, PromNames.Metric(name, unit, type));

    [Fact]
    public void PromQl_references_name_every_metric_and_label()
    {
        var (metrics, labels) = PromQl.References(
            "sum by (job, gc_heap_generation) (rate(dotnet_gc_collections_total{job=~\"Some.*\", a!=\"x{y}\"}[4s])) / on (job) group_left max(up) > bool 0",
            "{{job}} {{fetch}}");
        Assert.Equal(["dotnet_gc_collections_total", "up"], metrics.Order());
        Assert.Equal(["a", "fetch", "gc_heap_generation", "job"], labels.Order());

        var (variableMetrics, variableLabels) = PromQl.References("label_values(target_info{job=~\".*\"}, instance)", null);
        Assert.Equal(["target_info"], variableMetrics);
        Assert.Equal(["instance", "job"], variableLabels.Order());
    }

    /// <summary>
    /// Runs the sql/docker-init script on a throwaway cluster, starts both services with docker-compose.debug.yml's
    /// OTEL_* and URLS settings (Prometheus replaced by an in-test OTLP receiver), runs one sync, decodes what they
    /// push and checks every metric and label the dashboards use against Prometheus 3.5's OTLP name translation.
    /// </summary>
    [Fact]
    public async Task Services_push_every_metric_and_label_the_dashboards_use()
    {
        var clock = Stopwatch.StartNew();
        var compose = await ComposeConfigAsync();
        await using var postgres = await LocalPostgres.StartAsync();

        const int seedRows = 2_000;
        var (initExit, initOut, initErr) = await RunAsync("bash", [Path.Combine(Root, InitScript)], Root, "bash", new Dictionary<string, string>
        {
            ["PGHOST"] = "127.0.0.1", ["PGPORT"] = postgres.Port.ToString(), ["PGUSER"] = "postgres",
            ["SQL_DIR"] = Path.Combine(Root, "sql"), ["SEED_ROWS"] = seedRows.ToString(),
        });
        Assert.True(initExit == 0, initOut + initErr);
        Assert.Equal(seedRows, (await Lab.ReadSummaryAsync(postgres.ConnectionString(Lab.SourceDatabase))).Rows);
        Assert.Equal(0, (await Lab.ReadSummaryAsync(postgres.ConnectionString(Lab.TargetDatabase))).Rows);

        output.WriteLine($"{clock.Elapsed.TotalSeconds:F1} s: cluster initialised by {InitScript}");
        using var sink = new OtlpSink();
        var source = await StartFromComposeAsync(compose, "syncdatasource", "SyncDataSource", sink, new()
        {
            ["ConnectionStrings__Source"] = postgres.ConnectionString(Lab.SourceDatabase),
        });
        await using var sourceProcess = source;
        var some = await StartFromComposeAsync(compose, "someservice", "SomeService", sink, new()
        {
            ["ConnectionStrings__Target"] = postgres.ConnectionString(Lab.TargetDatabase),
            ["Sync__SourceBaseUrl"] = source.BaseAddress.ToString(),
        });
        await using var someProcess = some;

        output.WriteLine($"{clock.Elapsed.TotalSeconds:F1} s: both services healthy");
        using var client = new HttpClient { BaseAddress = some.BaseAddress, Timeout = TimeSpan.FromMinutes(2) };
        foreach (var query in new[] { "f=NpgsqlCopy&i=NpgsqlCopy", "f=EFStream&i=NpgsqlCopy" })
        {
            using var response = await client.GetAsync($"sync?{query}&wait=true");
            var body = await response.Content.ReadAsStringAsync();
            Assert.True(response.IsSuccessStatusCode, body + "\n" + some.RecentOutput);
            var run = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
            Assert.Equal(RunStatus.Succeeded, run.Status);
            Assert.Equal(seedRows, run.Rows);
        }

        // Cumulative pushes: wait for one from each service sent after the runs.
        var after = DateTime.UtcNow;
        var metrics = await sink.WaitForAsync(
            m => m.Any(x => x.Service == "SomeService" && x.Name == "sync.rows.written")
                 && m.Any(x => x.Service == "SyncDataSource" && x.Name == "http.server.request.duration"),
            after, TimeSpan.FromSeconds(15));

        output.WriteLine($"{clock.Elapsed.TotalSeconds:F1} s: runs finished and pushed");
        Assert.All(sink.Requests, r => Assert.Equal("/api/v1/otlp/v1/metrics", r.Path));
        Assert.All(metrics.Where(m => m.Temporality is not null), m => Assert.True(m.Temporality == 2, $"{m.Name} is not cumulative; Prometheus rejects it."));
        var services = metrics.Select(m => m.Service).Distinct().Order().ToArray();
        Assert.Equal(["SomeService", "SyncDataSource"], services);

        var promoted = StrippedPrometheusConfig().OtlpList("promote_resource_attributes");
        var series = PromNames.Series(metrics, promoted);
        foreach (var line in series.OrderBy(s => s.Key).Select(s => $"{s.Key} {{{string.Join(", ", s.Value.Order())}}}"))
        {
            output.WriteLine(line);
        }

        var dashboards = Dashboards.Load(Path.Combine(Root, DashboardsDirectory));
        var failures = new List<string>();
        var used = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var dashboard in dashboards)
        {
            foreach (var query in dashboard.Queries)
            {
                var (names, labels) = PromQl.References(Dashboards.Substitute(query.Expr), query.Legend);
                Assert.True(names.Count > 0, $"{dashboard.Title} / {query.Where}: no metric in {query.Expr}");
                used.UnionWith(names);
                var missing = names.Where(n => !series.ContainsKey(n)).ToArray();
                if (missing.Length > 0)
                {
                    failures.Add($"{dashboard.Title} / {query.Where}: no such series pushed: {string.Join(", ", missing)}");
                    continue;
                }

                var available = names.SelectMany(n => series[n]).ToHashSet();
                var unknown = labels.Where(l => !available.Contains(l)).ToArray();
                if (unknown.Length > 0)
                {
                    failures.Add($"{dashboard.Title} / {query.Where}: labels {string.Join(", ", unknown)} not on {string.Join(", ", names)}");
                }
            }
        }

        output.WriteLine($"Dashboards use {used.Count} metrics: {string.Join(", ", used)}");
        Assert.True(failures.Count == 0, string.Join('\n', failures));
    }

    // ---------------------------------------------------------------- helpers

    private static string ProvisionedDatasourceUid()
    {
        var text = File.ReadAllText(Path.Combine(Root, DatasourceFile));
        var uids = Regex.Matches(text, @"^\s+uid:\s*(\S+)\s*$", RegexOptions.Multiline).Select(m => m.Groups[1].Value).ToArray();
        return Assert.Single(uids);
    }

    private sealed record StrippedConfig(string Config, IReadOnlyDictionary<string, string> OtlpKeys, IReadOnlyDictionary<string, List<string>> OtlpLists)
    {
        public IReadOnlyList<string> OtlpList(string key) => OtlpLists.TryGetValue(key, out var list) ? list : [];
    }

    /// <summary>prometheus/prometheus.yml without its top-level otlp: block (unknown to 2.42), and that block's keys.</summary>
    private static StrippedConfig StrippedPrometheusConfig()
    {
        var lines = File.ReadAllLines(Path.Combine(Root, PrometheusConfig));
        var kept = new List<string>();
        var keys = new Dictionary<string, string>();
        var lists = new Dictionary<string, List<string>>();
        string? currentKey = null;
        var inOtlp = false;
        foreach (var line in lines)
        {
            var topLevel = line.Length > 0 && !char.IsWhiteSpace(line[0]) && !line.StartsWith('#');
            if (topLevel)
            {
                inOtlp = line.TrimEnd() == "otlp:";
            }

            if (!inOtlp)
            {
                kept.Add(line);
                continue;
            }

            var key = Regex.Match(line, @"^  (?<key>[a-z_]+):\s*(?<value>[^#]*?)\s*(#.*)?$");
            var item = Regex.Match(line, @"^    - (?<item>\S+)\s*$");
            if (key.Success)
            {
                currentKey = key.Groups["key"].Value;
                keys[currentKey] = key.Groups["value"].Value;
            }
            else if (item.Success && currentKey is not null)
            {
                (lists.TryGetValue(currentKey, out var list) ? list : lists[currentKey] = []).Add(item.Groups["item"].Value);
            }
        }

        return new StrippedConfig(string.Join('\n', kept) + "\n", keys, lists);
    }

    private static async Task<ComposeConfig> ComposeConfigAsync()
    {
        var (exit, stdout, stderr) = await RunAsync("docker-compose", ["-f", ComposeFile, "config"], Root, "docker-compose");
        Assert.True(exit == 0, $"docker-compose -f {ComposeFile} config failed ({exit}):\n{stderr}");
        return ComposeConfig.Parse(stdout);
    }

    private async Task<ServiceUnderTest> StartFromComposeAsync(ComposeConfig compose, string service, string project, OtlpSink sink, Dictionary<string, string> local)
    {
        var port = LocalPostgres.FreePort();
        var environment = new Dictionary<string, string>();
        foreach (var (key, value) in compose.Services[service].Environment.Where(e => e.Key.StartsWith("OTEL_", StringComparison.Ordinal)))
        {
            environment[key] = value.Replace("http://prometheus:9090", sink.BaseAddress.ToString().TrimEnd('/'), StringComparison.Ordinal);
        }

        // Same variable the container uses, on a loopback port: proves URLS beats appsettings.json's Urls.
        environment["URLS"] = Regex.Replace(compose.Services[service].Environment["URLS"], @"0\.0\.0\.0:\d+", $"127.0.0.1:{port}");
        foreach (var (key, value) in local)
        {
            environment[key] = value;
        }

        output.WriteLine($"{project}: {string.Join(" ", environment.Where(e => !e.Key.StartsWith("Conn", StringComparison.Ordinal)).Select(e => $"{e.Key}={e.Value}"))}");
#if DEBUG
        const string configuration = "Debug";
#else
        const string configuration = "Release";
#endif
        return await ServiceUnderTest.StartAsync(project, Lab.ServiceAssembly(project, configuration), new Uri($"http://127.0.0.1:{port}/"), environment);
    }

    private static string RequireTool(string name, string aptPackage)
    {
        foreach (var directory in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries))
        {
            var path = Path.Combine(directory, name);
            if (File.Exists(path))
            {
                return path;
            }
        }

        Assert.Fail($"'{name}' is not installed: apt-get install -y {aptPackage}");
        return name;
    }

    internal static async Task<(int Exit, string Stdout, string Stderr)> RunAsync(
        string tool, IEnumerable<string> arguments, string workingDirectory, string aptPackage, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(Path.IsPathRooted(tool) ? tool : RequireTool(tool, aptPackage))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (key, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[key] = value;
        }

        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"{tool} {string.Join(' ', start.ArgumentList)} did not finish in 60 s.");
        }

        return (process.ExitCode, await stdout, await stderr);
    }
}

// ==================================================================== docker-compose config output

/// <summary>The parts of `docker-compose config` output (normalised YAML, two-space indents) the tests look at.</summary>
internal sealed class ComposeConfig
{
    public sealed class Service
    {
        public string? Image { get; set; }
        public string? BuildContext { get; set; }
        public string? Dockerfile { get; set; }
        public List<string> Command { get; } = [];
        public List<string> Ports { get; } = [];
        public List<string> Volumes { get; } = [];
        public Dictionary<string, string> Environment { get; } = [];
        public List<string> DependsOn { get; } = [];
    }

    public Dictionary<string, Service> Services { get; } = [];

    public static ComposeConfig Parse(string yaml)
    {
        var config = new ComposeConfig();
        Service? service = null;
        string? section = null;
        var inServices = false;
        foreach (var raw in yaml.Split('\n'))
        {
            var line = raw.TrimEnd('\r');
            if (line.Length == 0)
            {
                continue;
            }

            var indent = line.Length - line.TrimStart().Length;
            var text = line.Trim();
            if (indent == 0)
            {
                inServices = text == "services:";
                service = null;
                continue;
            }

            if (!inServices)
            {
                continue;
            }

            if (indent == 2)
            {
                service = config.Services[text.TrimEnd(':')] = new Service();
                section = null;
                continue;
            }

            if (service is null)
            {
                continue;
            }

            if (indent == 4 && !text.StartsWith("- ", StringComparison.Ordinal))
            {
                var (key, value) = KeyValue(text);
                section = key;
                if (key == "image")
                {
                    service.Image = value;
                }

                continue;
            }

            var item = text.StartsWith("- ", StringComparison.Ordinal) ? Unquote(text[2..]) : null;
            switch (section)
            {
                case "build" when indent == 6:
                    var (buildKey, buildValue) = KeyValue(text);
                    if (buildKey == "context") service.BuildContext = buildValue;
                    if (buildKey == "dockerfile") service.Dockerfile = buildValue;
                    break;
                case "depends_on" when indent == 6:
                    service.DependsOn.Add(KeyValue(text).Key);
                    break;
                case "environment" when indent == 6:
                    var (name, envValue) = KeyValue(text);
                    service.Environment[name] = envValue;
                    break;
                case "command" when item is not null:
                    service.Command.Add(item);
                    break;
                case "ports" when item is not null:
                    service.Ports.Add(item);
                    break;
                case "volumes" when item is not null:
                    service.Volumes.Add(item);
                    break;
            }
        }

        return config;
    }

    private static (string Key, string Value) KeyValue(string text)
    {
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        return colon < 0 ? (text, "") : (text[..colon], Unquote(text[(colon + 1)..].Trim()));
    }

    private static string Unquote(string value) =>
        value.Length >= 2 && (value[0] == '\'' || value[0] == '"') && value[^1] == value[0] ? value[1..^1] : value;
}

// ==================================================================== Grafana dashboards

internal enum QueryKind { Panel, Annotation, Variable }

internal sealed record DashboardQuery(QueryKind Kind, string Where, string Expr, string? Legend, string? DatasourceUid);

internal sealed record DashboardPanel(int Id, string Type, string Title, string? DatasourceUid, IReadOnlyList<string> Targets);

internal sealed record Dashboard(string File, string Uid, string Title, IReadOnlyList<DashboardPanel> Panels, IReadOnlyList<DashboardQuery> Queries);

internal static class Dashboards
{
    /// <summary>Values Grafana would put in for the dashboards' variables (one service; all instances).</summary>
    private static readonly Dictionary<string, string> Variables = new()
    {
        ["job"] = "SomeService",
        ["instance"] = ".*",
        ["__rate_interval"] = "4s",
        ["__interval"] = "1s",
        ["__range"] = "15m",
    };

    public static string Substitute(string expr)
    {
        var result = Regex.Replace(expr, @"\$\{(?<name>\w+)(?::\w+)?\}|\$(?<name>\w+)", m =>
            Variables.TryGetValue(m.Groups["name"].Value, out var value)
                ? value
                : throw new InvalidOperationException($"Unknown dashboard variable {m.Value} in {expr}"));
        Assert.DoesNotContain("$", result);
        return result;
    }

    public static List<Dashboard> Load(string directory)
    {
        var files = Directory.GetFiles(directory, "*.json").Order().ToArray();
        Assert.NotEmpty(files);
        return files.Select(LoadOne).ToList();
    }

    private static Dashboard LoadOne(string file)
    {
        using var json = JsonDocument.Parse(File.ReadAllText(file));
        var root = json.RootElement;
        var title = root.GetProperty("title").GetString()!;
        var panels = new List<DashboardPanel>();
        var queries = new List<DashboardQuery>();

        void Visit(JsonElement panel)
        {
            var panelTitle = panel.TryGetProperty("title", out var t) ? t.GetString() ?? "" : "";
            var type = panel.GetProperty("type").GetString()!;
            var targets = new List<string>();
            if (panel.TryGetProperty("targets", out var targetArray))
            {
                foreach (var target in targetArray.EnumerateArray())
                {
                    var expr = target.GetProperty("expr").GetString()!;
                    targets.Add(expr);
                    queries.Add(new(QueryKind.Panel, $"panel '{panelTitle}' {target.GetProperty("refId").GetString()}", expr,
                        target.TryGetProperty("legendFormat", out var legend) ? legend.GetString() : null, Uid(target)));
                }
            }

            panels.Add(new(panel.GetProperty("id").GetInt32(), type, panelTitle, Uid(panel), targets));
            if (panel.TryGetProperty("panels", out var children))
            {
                foreach (var child in children.EnumerateArray())
                {
                    Visit(child);
                }
            }
        }

        foreach (var panel in root.GetProperty("panels").EnumerateArray())
        {
            Visit(panel);
        }

        foreach (var annotation in root.GetProperty("annotations").GetProperty("list").EnumerateArray())
        {
            if (annotation.TryGetProperty("builtIn", out var builtIn) && builtIn.GetInt32() == 1)
            {
                continue;
            }

            var name = annotation.GetProperty("name").GetString();
            var expr = annotation.GetProperty("expr").GetString()!;
            queries.Add(new(QueryKind.Annotation, $"annotation '{name}'", expr, annotation.GetProperty("titleFormat").GetString(), Uid(annotation)));
            if (annotation.TryGetProperty("target", out var target))
            {
                Assert.Equal(expr, target.GetProperty("expr").GetString());
            }
        }

        foreach (var variable in root.GetProperty("templating").GetProperty("list").EnumerateArray())
        {
            if (variable.GetProperty("type").GetString() != "query")
            {
                continue;
            }

            var query = variable.GetProperty("query");
            var expr = query.ValueKind == JsonValueKind.String ? query.GetString()! : query.GetProperty("query").GetString()!;
            queries.Add(new(QueryKind.Variable, $"variable '{variable.GetProperty("name").GetString()}'", expr, null, Uid(variable)));
        }

        return new(file, root.GetProperty("uid").GetString()!, title, panels, queries);
    }

    private static string? Uid(JsonElement element) =>
        element.TryGetProperty("datasource", out var ds) && ds.ValueKind == JsonValueKind.Object && ds.TryGetProperty("uid", out var uid)
            ? uid.GetString()
            : null;
}

// ==================================================================== PromQL references

internal static class PromQl
{
    private static readonly HashSet<string> Keywords =
    [
        "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset",
        "inf", "nan", "Inf", "NaN",
    ];

    /// <summary>Metric names and label names an expression (or a label_values(...) variable query) refers to.</summary>
    public static (HashSet<string> Metrics, HashSet<string> Labels) References(string expr, string? legend)
    {
        var metrics = new HashSet<string>(StringComparer.Ordinal);
        var labels = new HashSet<string>(StringComparer.Ordinal);
        var labelValues = Regex.Match(expr, @"^label_values\((?:(?<selector>.+),\s*)?(?<label>\w+)\)$");
        if (labelValues.Success)
        {
            labels.Add(labelValues.Groups["label"].Value);
            expr = labelValues.Groups["selector"].Value;
        }

        var text = Regex.Replace(expr, "\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"");
        text = Regex.Replace(text, @"\{(?<body>[^}]*)\}", m =>
        {
            foreach (Match matcher in Regex.Matches(m.Groups["body"].Value, @"(?<label>[a-zA-Z_]\w*)\s*(=~|!~|!=|=)"))
            {
                labels.Add(matcher.Groups["label"].Value);
            }

            return " ";
        });
        text = Regex.Replace(text, @"\[[^\]]*\]", " ");
        text = Regex.Replace(text, @"\b(by|without|on|ignoring|group_left|group_right)\s*\((?<list>[^)]*)\)", m =>
        {
            foreach (var label in m.Groups["list"].Value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                labels.Add(label);
            }

            return " ";
        });
        foreach (Match identifier in Regex.Matches(text, @"(?<![\w:.])(?<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?![a-zA-Z0-9_:]|\s*\()"))
        {
            if (!Keywords.Contains(identifier.Groups["name"].Value))
            {
                metrics.Add(identifier.Groups["name"].Value);
            }
        }

        foreach (Match placeholder in Regex.Matches(legend ?? "", @"\{\{\s*(?<label>\w+)\s*\}\}"))
        {
            labels.Add(placeholder.Groups["label"].Value);
        }

        return (metrics, labels);
    }
}

// ==================================================================== OTLP → Prometheus names

public enum OtlpType { Gauge, MonotonicSum, NonMonotonicSum, Histogram, ExponentialHistogram, Summary }

/// <summary>One instrument as pushed: service (resource service.name), name, unit, type, attribute keys.</summary>
internal sealed record PushedMetric(string Service, IReadOnlyDictionary<string, string> Resource, string Name, string Unit, OtlpType Type, int? Temporality, IReadOnlySet<string> Attributes);

/// <summary>
/// C# port of the UnderscoreEscapingWithSuffixes translation of Prometheus v3.5.0's OTLP receiver:
/// github.com/prometheus/otlptranslator@2573485683d5 metric_namer.go (normalizeName, buildUnitSuffixes, addUnitTokens)
/// and normalize_label.go (NormalizeLabel), plus prometheusremotewrite/helper.go (job, instance, promoted resource
/// attributes, target_info).
/// </summary>
internal static class PromNames
{
    private static readonly Dictionary<string, string> Units = new()
    {
        ["d"] = "days", ["h"] = "hours", ["min"] = "minutes", ["s"] = "seconds", ["ms"] = "milliseconds",
        ["us"] = "microseconds", ["ns"] = "nanoseconds", ["By"] = "bytes", ["KiBy"] = "kibibytes", ["MiBy"] = "mebibytes",
        ["GiBy"] = "gibibytes", ["TiBy"] = "tibibytes", ["KBy"] = "kilobytes", ["MBy"] = "megabytes", ["GBy"] = "gigabytes",
        ["TBy"] = "terabytes", ["m"] = "meters", ["V"] = "volts", ["A"] = "amperes", ["J"] = "joules", ["W"] = "watts",
        ["g"] = "grams", ["Cel"] = "celsius", ["Hz"] = "hertz", ["1"] = "", ["%"] = "percent",
    };

    private static readonly Dictionary<string, string> PerUnits = new()
    {
        ["s"] = "second", ["m"] = "minute", ["h"] = "hour", ["d"] = "day", ["w"] = "week", ["mo"] = "month", ["y"] = "year",
    };

    private static bool IsMetricChar(char c) => c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' or ':';

    public static string Metric(string name, string unit, OtlpType type)
    {
        var tokens = Tokens(name);
        var (main, per) = UnitSuffixes(unit);
        main = CleanUpUnit(main);
        per = CleanUpUnit(per);
        if (tokens.Contains(main))
        {
            main = "";
        }

        if (per == "per_")
        {
            per = "";
        }
        else
        {
            per = per.TrimEnd('_');
            if (tokens.Contains(per))
            {
                per = "";
            }
        }

        if (per != "")
        {
            main = main.TrimEnd('_');
        }

        if (main != "") tokens.Add(main);
        if (per != "") tokens.Add(per);
        if (type == OtlpType.MonotonicSum)
        {
            tokens.RemoveAll(t => t == "total");
            tokens.Add("total");
        }

        if (unit == "1" && type == OtlpType.Gauge)
        {
            tokens.RemoveAll(t => t == "ratio");
            tokens.Add("ratio");
        }

        var result = string.Join('_', tokens);
        return result.Length > 0 && char.IsDigit(result[0]) ? "_" + result : result;
    }

    public static string Label(string label)
    {
        if (label.Length == 0)
        {
            return label;
        }

        var sanitized = new string(label.Select(c => c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' ? c : '_').ToArray());
        if (char.IsDigit(sanitized[0]))
        {
            return "key_" + sanitized;
        }

        return sanitized.StartsWith('_') && !sanitized.StartsWith("__", StringComparison.Ordinal) ? "key" + sanitized : sanitized;
    }

    /// <summary>Every series name Prometheus would store for these instruments, with the label names it would carry.</summary>
    public static Dictionary<string, HashSet<string>> Series(IEnumerable<PushedMetric> metrics, IReadOnlyList<string> promotedResourceAttributes)
    {
        var series = new Dictionary<string, HashSet<string>>(StringComparer.Ordinal);

        void Add(string name, IEnumerable<string> labels)
        {
            if (!series.TryGetValue(name, out var set))
            {
                series[name] = set = [];
            }

            set.UnionWith(labels);
        }

        foreach (var metric in metrics)
        {
            var labels = metric.Attributes.Select(Label).ToHashSet();
            labels.UnionWith(promotedResourceAttributes.Where(metric.Resource.ContainsKey).Select(Label));
            if (metric.Resource.ContainsKey("service.name")) labels.Add("job");
            if (metric.Resource.ContainsKey("service.instance.id")) labels.Add("instance");
            var name = Metric(metric.Name, metric.Unit, metric.Type);
            if (metric.Type == OtlpType.Histogram)
            {
                Add(name + "_bucket", labels.Append("le"));
                Add(name + "_sum", labels);
                Add(name + "_count", labels);
            }
            else
            {
                Add(name, labels);
            }

            // target_info: all resource attributes (keep_identifying_resource_attributes: true) plus job/instance.
            Add("target_info", metric.Resource.Keys.Select(Label).Append("job").Append("instance"));
        }

        return series;
    }

    private static List<string> Tokens(string name) =>
        SplitWhere(name, c => !IsMetricChar(c)).Where(t => t.Length > 0).ToList();

    private static IEnumerable<string> SplitWhere(string value, Func<char, bool> separator)
    {
        var current = new StringBuilder();
        foreach (var c in value)
        {
            if (separator(c))
            {
                yield return current.ToString();
                current.Clear();
            }
            else
            {
                current.Append(c);
            }
        }

        yield return current.ToString();
    }

    private static (string Main, string Per) UnitSuffixes(string unit)
    {
        var parts = unit.Split('/', 2);
        var main = "";
        var per = "";
        var mainOtel = parts[0].Trim();
        if (mainOtel != "" && mainOtel.IndexOfAny(['{', '}']) < 0)
        {
            main = Units.GetValueOrDefault(mainOtel, mainOtel);
        }

        if (parts.Length > 1 && parts[1] != "")
        {
            var perOtel = parts[1].Trim();
            if (perOtel != "" && perOtel.IndexOfAny(['{', '}']) < 0)
            {
                per = PerUnits.GetValueOrDefault(perOtel, perOtel);
            }

            if (per != "")
            {
                per = "per_" + per;
            }
        }

        return (main, per);
    }

    private static string CleanUpUnit(string unit)
    {
        var collapsed = Regex.Replace(new string(unit.Select(c => IsMetricChar(c) ? c : '_').ToArray()), "__+", "_");
        return collapsed.StartsWith('_') ? collapsed[1..] : collapsed;
    }
}

// ==================================================================== OTLP receiver

/// <summary>Accepts OTLP/HTTP protobuf pushes on loopback, as Prometheus's /api/v1/otlp would, and decodes them.</summary>
internal sealed class OtlpSink : IDisposable
{
    private readonly HttpListener _listener = new();
    private readonly ConcurrentQueue<(DateTime At, string Path, byte[] Body)> _requests = new();
    private readonly Task _loop;

    public OtlpSink()
    {
        var port = LocalPostgres.FreePort();
        BaseAddress = new Uri($"http://127.0.0.1:{port}/");
        _listener.Prefixes.Add(BaseAddress.ToString());
        _listener.Start();
        _loop = Task.Run(LoopAsync);
    }

    public Uri BaseAddress { get; }

    public IEnumerable<(DateTime At, string Path, byte[] Body)> Requests => _requests;

    private async Task LoopAsync()
    {
        while (_listener.IsListening)
        {
            HttpListenerContext context;
            try
            {
                context = await _listener.GetContextAsync();
            }
            catch (Exception ex) when (ex is HttpListenerException or ObjectDisposedException or InvalidOperationException)
            {
                return;
            }

            using var body = new MemoryStream();
            await context.Request.InputStream.CopyToAsync(body);
            _requests.Enqueue((DateTime.UtcNow, context.Request.Url!.AbsolutePath, body.ToArray()));
            context.Response.StatusCode = 200;
            context.Response.ContentType = "application/x-protobuf";
            context.Response.Close();
        }
    }

    /// <summary>Waits until the pushes received after <paramref name="after"/> satisfy <paramref name="done"/>; returns every instrument pushed.</summary>
    public async Task<List<PushedMetric>> WaitForAsync(Func<List<PushedMetric>, bool> done, DateTime after, TimeSpan timeout)
    {
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            var recent = _requests.Where(r => r.At > after && r.Path.EndsWith("/v1/metrics", StringComparison.Ordinal))
                .SelectMany(r => Otlp.DecodeMetrics(r.Body)).ToList();
            if (done(recent))
            {
                return _requests.Where(r => r.Path.EndsWith("/v1/metrics", StringComparison.Ordinal)).SelectMany(r => Otlp.DecodeMetrics(r.Body)).ToList();
            }

            Assert.True(deadline.Elapsed < timeout,
                $"No OTLP push with the expected instruments within {timeout}. Received: {string.Join(", ", recent.Select(m => m.Service + ":" + m.Name).Distinct())}");
            await Task.Delay(200);
        }
    }

    public void Dispose()
    {
        _listener.Close();
        _loop.Wait(TimeSpan.FromSeconds(5));
    }
}

/// <summary>
/// Reads the fields of opentelemetry/proto/collector/metrics/v1 ExportMetricsServiceRequest the name check needs
/// (protobuf wire format: resource attributes, metric name/unit/type/temporality, data point attribute keys).
/// </summary>
internal static class Otlp
{
    public static IEnumerable<PushedMetric> DecodeMetrics(byte[] request)
    {
        var result = new List<PushedMetric>();
        foreach (var (field, resourceMetrics) in Fields(request))
        {
            if (field != 1) continue;
            var resource = new Dictionary<string, string>();
            var metrics = new List<ReadOnlyMemory<byte>>();
            foreach (var (f, value) in Fields(resourceMetrics))
            {
                if (f == 1)
                {
                    foreach (var (rf, attribute) in Fields(value))
                    {
                        if (rf == 1)
                        {
                            var (key, text) = KeyValue(attribute);
                            resource[key] = text;
                        }
                    }
                }
                else if (f == 2)
                {
                    metrics.AddRange(Fields(value).Where(x => x.Field == 2).Select(x => x.Value));
                }
            }

            var service = resource.GetValueOrDefault("service.name", "");
            result.AddRange(metrics.Select(m => Metric(service, resource, m)));
        }

        return result;
    }

    private static PushedMetric Metric(string service, Dictionary<string, string> resource, ReadOnlyMemory<byte> metric)
    {
        string name = "", unit = "";
        var type = OtlpType.Gauge;
        int? temporality = null;
        var attributes = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (field, value) in Fields(metric))
        {
            switch (field)
            {
                case 1: name = Encoding.UTF8.GetString(value.Span); break;
                case 3: unit = Encoding.UTF8.GetString(value.Span); break;
                case 5: type = OtlpType.Gauge; Points(value, 7, attributes, ref temporality, out _); break;
                case 7:
                    Points(value, 7, attributes, ref temporality, out var monotonic);
                    type = monotonic ? OtlpType.MonotonicSum : OtlpType.NonMonotonicSum;
                    break;
                case 9: type = OtlpType.Histogram; Points(value, 9, attributes, ref temporality, out _); break;
                case 10: type = OtlpType.ExponentialHistogram; Points(value, 1, attributes, ref temporality, out _); break;
                case 11: type = OtlpType.Summary; Points(value, 7, attributes, ref temporality, out _); break;
            }
        }

        return new PushedMetric(service, resource, name, unit, type, temporality, attributes);
    }

    /// <summary>Gauge/Sum/Histogram/...: data_points = 1, aggregation_temporality = 2, is_monotonic = 3 (Sum).</summary>
    private static void Points(ReadOnlyMemory<byte> data, int attributesField, HashSet<string> attributes, ref int? temporality, out bool monotonic)
    {
        monotonic = false;
        var fields = Fields(data, out var varints);
        foreach (var (field, value) in fields)
        {
            if (field != 1) continue;
            foreach (var (pf, attribute) in Fields(value))
            {
                if (pf == attributesField)
                {
                    attributes.Add(KeyValue(attribute).Key);
                }
            }
        }

        foreach (var (field, number) in varints)
        {
            if (field == 2) temporality = (int)number;
            if (field == 3) monotonic = number != 0;
        }
    }

    private static (string Key, string Value) KeyValue(ReadOnlyMemory<byte> keyValue)
    {
        string key = "", value = "";
        foreach (var (field, data) in Fields(keyValue))
        {
            if (field == 1) key = Encoding.UTF8.GetString(data.Span);
            if (field == 2)
            {
                foreach (var (af, text) in Fields(data))
                {
                    if (af == 1) value = Encoding.UTF8.GetString(text.Span);
                }
            }
        }

        return (key, value);
    }

    private static List<(int Field, ReadOnlyMemory<byte> Value)> Fields(ReadOnlyMemory<byte> data) => Fields(data, out _);

    /// <summary>The length-delimited fields of one message (other wire types are skipped, varints returned apart).</summary>
    private static List<(int Field, ReadOnlyMemory<byte> Value)> Fields(ReadOnlyMemory<byte> data, out List<(int Field, ulong Value)> varints)
    {
        var fields = new List<(int, ReadOnlyMemory<byte>)>();
        varints = [];
        var span = data.Span;
        var position = 0;
        while (position < span.Length)
        {
            var tag = ReadVarint(span, ref position);
            var field = (int)(tag >> 3);
            switch ((int)(tag & 7))
            {
                case 0: varints.Add((field, ReadVarint(span, ref position))); break;
                case 1: position += 8; break;
                case 2:
                    var length = (int)ReadVarint(span, ref position);
                    fields.Add((field, data.Slice(position, length)));
                    position += length;
                    break;
                case 5: position += 4; break;
                default: throw new InvalidDataException($"Unsupported protobuf wire type {tag & 7}");
            }
        }

        return fields;
    }

    private static ulong ReadVarint(ReadOnlySpan<byte> span, ref int position)
    {
        ulong result = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            var b = span[position++];
            result |= (ulong)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                return result;
            }
        }

        throw new InvalidDataException("Malformed varint");
    }
}

// ==================================================================== processes

/// <summary>A service started as `dotnet {dll}` with only environment variables (no --urls), as the container does.</summary>
internal sealed class ServiceUnderTest : IAsyncDisposable
{
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _output = new();

    private ServiceUnderTest(Process process, Uri baseAddress)
    {
        _process = process;
        BaseAddress = baseAddress;
    }

    public Uri BaseAddress { get; }

    public string RecentOutput => string.Join('\n', _output.TakeLast(40));

    public static async Task<ServiceUnderTest> StartAsync(string name, string assembly, Uri baseAddress, IReadOnlyDictionary<string, string> environment)
    {
        Assert.True(File.Exists(assembly), $"{name} is not built: {assembly}");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Path.GetDirectoryName(assembly)!,
        };
        start.ArgumentList.Add(assembly);
        start.Environment["DOTNET_ENVIRONMENT"] = "Production";
        start.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        var service = new ServiceUnderTest(Process.Start(start)!, baseAddress);
        service._process.OutputDataReceived += (_, e) => { if (e.Data is not null) service._output.Enqueue(e.Data); };
        service._process.ErrorDataReceived += (_, e) => { if (e.Data is not null) service._output.Enqueue(e.Data); };
        service._process.BeginOutputReadLine();
        service._process.BeginErrorReadLine();

        using var http = new HttpClient { BaseAddress = baseAddress, Timeout = TimeSpan.FromSeconds(2) };
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (service._process.HasExited)
            {
                var exitOutput = service.RecentOutput;
                await service.DisposeAsync();
                Assert.Fail($"{name} exited during startup:\n{exitOutput}");
            }

            try
            {
                using var response = await http.GetAsync("health");
                if (response.IsSuccessStatusCode)
                {
                    return service;
                }
            }
            catch (HttpRequestException)
            {
            }
            catch (TaskCanceledException)
            {
            }

            if (clock.Elapsed > TimeSpan.FromSeconds(60))
            {
                var output = service.RecentOutput;
                await service.DisposeAsync();
                Assert.Fail($"{name} did not answer {baseAddress}health within 60 s (does URLS override appsettings.json's Urls?):\n{output}");
            }

            await Task.Delay(100);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }
}

/// <summary>Debian's Prometheus 2.42 on a free loopback port with a throwaway TSDB: a PromQL parser with an HTTP API.</summary>
internal sealed class PrometheusServer : IAsyncDisposable
{
    private readonly Process _process;
    private readonly DirectoryInfo _directory;
    private readonly ConcurrentQueue<string> _output = new();

    private PrometheusServer(Process process, DirectoryInfo directory, Uri baseAddress)
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
        var start = new ProcessStartInfo(binary)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = directory.FullName,
        };
        foreach (var argument in new[]
                 {
                     $"--config.file={configPath}", $"--storage.tsdb.path={Path.Combine(directory.FullName, "data")}",
                     $"--web.listen-address=127.0.0.1:{port}", "--log.level=warn",
                 })
        {
            start.ArgumentList.Add(argument);
        }

        var server = new PrometheusServer(Process.Start(start)!, directory, new Uri($"http://127.0.0.1:{port}/"));
        server._process.OutputDataReceived += (_, e) => { if (e.Data is not null) server._output.Enqueue(e.Data); };
        server._process.ErrorDataReceived += (_, e) => { if (e.Data is not null) server._output.Enqueue(e.Data); };
        server._process.BeginOutputReadLine();
        server._process.BeginErrorReadLine();

        using var http = new HttpClient { BaseAddress = server.BaseAddress, Timeout = TimeSpan.FromSeconds(2) };
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (server._process.HasExited || clock.Elapsed > TimeSpan.FromSeconds(20))
            {
                var output = string.Join('\n', server._output);
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
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
        _directory.Delete(recursive: true);
    }
}
