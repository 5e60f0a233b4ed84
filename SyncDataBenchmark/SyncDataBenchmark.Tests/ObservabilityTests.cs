using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;
using Xunit.Abstractions;
using YamlDotNet.RepresentationModel;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The debug stack's files (docker-compose.debug.yml, prometheus/, grafana/, sql/docker-init/) checked with the tools
/// this machine has: Debian's docker-compose (no Docker engine), Prometheus and promtool. That a real Prometheus
/// scraping the real services answers every dashboard query is shown by <see cref="PrometheusScrapeTests"/>; what
/// cannot be shown here is Grafana itself drawing the panels.
/// </summary>
[Trait("Tier", "Lab")]
public sealed class ObservabilityTests(ITestOutputHelper output)
{
    private const string ComposeFile = "docker-compose.debug.yml";
    private const string PrometheusConfig = "prometheus/prometheus.yml";
    internal const string PrometheusHostConfig = "prometheus/prometheus.host.yml";
    private const string DatasourceFile = "grafana/provisioning/datasources/prometheus.yml";
    private const string DashboardProviderFile = "grafana/provisioning/dashboards/syncdata.yml";
    private const string DashboardsDirectory = "grafana/dashboards";
    private const string InitScript = "sql/docker-init/10-source-and-target.sh";

    private static string Root => Lab.RepositoryRoot;

    // ---------------------------------------------------------------- (a) docker-compose

    [Fact]
    public async Task Compose_file_is_valid_and_wires_services_to_postgres_and_prometheus_scrapes_both()
    {
        var compose = await ComposeConfigAsync();

        Assert.Equal(["grafana", "postgres", "prometheus", "someservice", "syncdatasource"], compose.Services.Keys.Order());

        var prometheus = compose.Services["prometheus"];
        Assert.Matches(@"^prom/prometheus:v3\.", prometheus.Image);
        Assert.Contains("127.0.0.1:9090:9090/tcp", prometheus.Ports);
        Assert.Contains($"{Path.Combine(Root, PrometheusConfig)}:/etc/prometheus/prometheus.yml:ro", prometheus.Volumes);

        var postgres = compose.Services["postgres"];
        Assert.Equal("postgres:15", postgres.Image);
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
            // One Dockerfile for both services: the service is a build argument.
            Assert.Equal("Dockerfile", service.Dockerfile);
            Assert.Equal(project, service.BuildArgs["SERVICE"]);
            Assert.Equal(port.ToString(System.Globalization.CultureInfo.InvariantCulture), service.BuildArgs["PORT"]);
            var copies = DockerfileCopies(Path.Combine(service.BuildContext!, service.Dockerfile!), service.BuildArgs);
            AssertDockerfileCopiesExist(copies, service.BuildContext!);
            AssertDockerfileCopiesEveryReferencedProject(copies, service.BuildContext!, project);
            Assert.Contains($"127.0.0.1:{port}:{port}/tcp", service.Ports);
            // appsettings.json's Urls (127.0.0.1) outranks ASPNETCORE_URLS; the unprefixed URLS variable does not lose.
            Assert.Equal($"http://0.0.0.0:{port}", service.Environment["URLS"]);
            Assert.Contains($"Host=postgres;Port=5432;", service.Environment[$"ConnectionStrings__{database}"]);
            // Scraped, not pushing: both at once would count every series twice under the same job.
            Assert.DoesNotContain(service.Environment.Keys, k => k.StartsWith("OTEL_EXPORTER_OTLP", StringComparison.Ordinal));
        }

        // Prometheus scrapes each service's /metrics by its compose name, as job=<service name> (the dashboards' $job).
        Assert.Equal(
            [("SomeService", "/metrics", "someservice:5180"), ("SyncDataSource", "/metrics", "syncdatasource:5190")],
            ScrapeJobs(File.ReadAllText(Path.Combine(Root, PrometheusConfig))).Where(j => j.Job != "prometheus"));

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
        Assert.Equal(["postgres", "syncdatasource"], compose.Services["someservice"].DependsOn.Order());

        // Every bind-mounted host path exists.
        foreach (var volume in compose.Services.Values.SelectMany(s => s.Volumes).Where(v => v.StartsWith('/')))
        {
            var hostPath = volume.Split(':')[0];
            Assert.True(File.Exists(hostPath) || Directory.Exists(hostPath), $"{ComposeFile} mounts {hostPath}, which does not exist.");
        }

        // The init script is executable in git (the postgres entrypoint runs executable *.sh, sources the others).
        var (_, mode, _) = await Tools.RunAsync("git", ["ls-files", "--stage", InitScript], Root, "git");
        Assert.StartsWith("100755", mode);
    }

    /// <summary>
    /// The image restores and builds from the project files it copies: each project the service references, directly
    /// or not, must be copied twice (its project file before the restore, its directory after).
    /// </summary>
    private static void AssertDockerfileCopiesEveryReferencedProject(string[] copies, string context, string project)
    {
        var pending = new Stack<string>([project]);
        var seen = new HashSet<string>();
        while (pending.TryPop(out var name))
        {
            if (!seen.Add(name))
            {
                continue;
            }

            Assert.Contains($"COPY {name}/{name}.csproj {name}/", copies);
            Assert.Contains($"COPY {name}/ {name}/", copies);
            var csproj = System.Xml.Linq.XDocument.Load(Path.Combine(context, name, name + ".csproj"));
            foreach (var reference in csproj.Descendants("ProjectReference"))
            {
                pending.Push(Path.GetFileNameWithoutExtension(reference.Attribute("Include")!.Value.Replace('\\', '/')));
            }
        }

        Assert.Contains("SyncData.Shared", seen);
    }

    /// <summary>The Dockerfile's COPY lines from the build context (not from another stage), build arguments filled in.</summary>
    private static string[] DockerfileCopies(string dockerfile, IReadOnlyDictionary<string, string> args)
    {
        Assert.True(File.Exists(dockerfile), $"{dockerfile} is missing.");
        return File.ReadAllLines(dockerfile)
            .Where(l => l.StartsWith("COPY ", StringComparison.Ordinal) && !l.Contains("--from=", StringComparison.Ordinal))
            .Select(l => args.Aggregate(l, (line, arg) => line.Replace("${" + arg.Key + "}", arg.Value, StringComparison.Ordinal)))
            .ToArray();
    }

    private static void AssertDockerfileCopiesExist(string[] copies, string context)
    {
        var ignored = File.ReadAllLines(Path.Combine(context, ".dockerignore"))
            .Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')).ToArray();
        Assert.NotEmpty(copies);
        foreach (var copy in copies)
        {
            Assert.DoesNotContain("${", copy, StringComparison.Ordinal);
            var parts = copy.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            foreach (var source in parts[1..^1])
            {
                var path = Path.Combine(context, source);
                Assert.True(File.Exists(path) || Directory.Exists(path), $"Dockerfile: {copy} — {source} is not in the build context {context}.");
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
        // The official ASP.NET Core dashboards' uids (dotnet/aspire-samples, grafana.com 19924/19925), so links to them work.
        Assert.Equal("KdDACDp4z", byTitle["ASP.NET Core"].Uid);
        Assert.Equal("NagEsjE4z", byTitle["ASP.NET Core Endpoint"].Uid);
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
    public async Task Prometheus_configs_pass_promtool_and_scrape_both_services_every_second()
    {
        var promtool = Tools.Require("promtool", "prometheus");
        var directory = Directory.CreateTempSubdirectory("syncdata-promtool-");
        try
        {
            // Services and Prometheus on the host: checked as written.
            var hostConfig = Path.Combine(Root, PrometheusHostConfig);
            var (hostExit, hostOut, hostErr) = await Tools.RunAsync(promtool, ["check", "config", hostConfig], Root, "prometheus");
            Assert.True(hostExit == 0, hostOut + hostErr);
            Assert.Equal(
                [("SomeService", "/metrics", "127.0.0.1:5180"), ("SyncDataSource", "/metrics", "127.0.0.1:5190")],
                ScrapeJobs(File.ReadAllText(hostConfig)));

            // The debug stack's config: its otlp: block is a Prometheus 3 section (checked below against the keys
            // Prometheus 3 knows); everything else, scrape jobs included, by promtool.
            var stripped = StrippedPrometheusConfig();
            var path = Path.Combine(directory.FullName, "prometheus.yml");
            await File.WriteAllTextAsync(path, stripped.Config);
            var (exit, stdout, stderr) = await Tools.RunAsync(promtool, ["check", "config", path], Root, "prometheus");
            Assert.True(exit == 0, stdout + stderr);
            Assert.Contains("SUCCESS", stdout + stderr);

            foreach (var config in new[] { stripped.Config, File.ReadAllText(hostConfig) })
            {
                Assert.Equal("1s", YamlFiles.Load(config).Child("global")?.Scalar("scrape_interval"));
            }

            // The otlp block itself (for users with a collector), against the keys and values Prometheus v3.5.0
            // accepts (config/config.go OTLPConfig).
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

    /// <summary>(job_name, metrics_path, target) of every static scrape target in a Prometheus config, in order.</summary>
    internal static List<(string Job, string Path, string Target)> ScrapeJobs(string config) =>
        [
            .. from job in YamlFiles.Load(config).Items("scrape_configs")
               from staticConfig in job.Items("static_configs")
               from target in staticConfig.Items("targets")
               select (job.Scalar("job_name")!, job.Scalar("metrics_path") ?? "/metrics", ((YamlScalarNode)target).Value!),
        ];

    // ---------------------------------------------------------------- helpers

    private static string ProvisionedDatasourceUid()
    {
        var datasources = YamlFiles.Load(File.ReadAllText(Path.Combine(Root, DatasourceFile))).Items("datasources");
        return Assert.Single(datasources).Scalar("uid")!;
    }

    internal sealed record StrippedConfig(string Config, IReadOnlyDictionary<string, string> OtlpKeys, IReadOnlyDictionary<string, List<string>> OtlpLists)
    {
        public IReadOnlyList<string> OtlpList(string key) => OtlpLists.TryGetValue(key, out var list) ? list : [];
    }

    /// <summary>prometheus/prometheus.yml without its top-level otlp: block (unknown to 2.42), and that block's keys.</summary>
    internal static StrippedConfig StrippedPrometheusConfig()
    {
        var root = YamlFiles.Load(File.ReadAllText(Path.Combine(Root, PrometheusConfig)));
        var otlp = Assert.IsType<YamlMappingNode>(root.Child("otlp"));
        root.Children.Remove(new YamlScalarNode("otlp"));
        var keys = new Dictionary<string, string>();
        var lists = new Dictionary<string, List<string>>();
        foreach (var (key, value) in otlp.Children)
        {
            var name = ((YamlScalarNode)key).Value!;
            keys[name] = (value as YamlScalarNode)?.Value ?? "";
            if (value is YamlSequenceNode sequence)
            {
                lists[name] = [.. sequence.Children.Cast<YamlScalarNode>().Select(n => n.Value!)];
            }
        }

        return new StrippedConfig(YamlFiles.Save(root), keys, lists);
    }

    private static async Task<ComposeConfig> ComposeConfigAsync()
    {
        var (exit, stdout, stderr) = await Tools.RunAsync("docker-compose", ["-f", ComposeFile, "config"], Root, "docker-compose");
        Assert.True(exit == 0, $"docker-compose -f {ComposeFile} config failed ({exit}):\n{stderr}");
        return ComposeConfig.Parse(stdout);
    }
}
