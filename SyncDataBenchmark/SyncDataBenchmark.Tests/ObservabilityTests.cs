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
/// this machine has: Debian's docker-compose (no Docker engine), Prometheus and promtool. That a real Prometheus
/// scraping the real services answers every dashboard query is shown by <see cref="PrometheusScrapeTests"/>; what
/// cannot be shown here is Grafana itself drawing the panels.
/// </summary>
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
            AssertDockerfileCopiesEveryReferencedProject(Path.Combine(service.BuildContext!, service.Dockerfile!), service.BuildContext!, project);
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
        var (_, mode, _) = await RunAsync("git", ["ls-files", "--stage", InitScript], Root, "git");
        Assert.StartsWith("100755", mode);
    }

    /// <summary>
    /// The image restores and builds from the project files it copies: each project the service references, directly
    /// or not, must be copied twice (its project file before the restore, its directory after).
    /// </summary>
    private static void AssertDockerfileCopiesEveryReferencedProject(string dockerfile, string context, string project)
    {
        var copies = File.ReadAllLines(dockerfile).Where(l => l.StartsWith("COPY ", StringComparison.Ordinal)).ToArray();
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
    public async Task Prometheus_configs_pass_promtool_and_scrape_both_services_every_second()
    {
        var promtool = RequireTool("promtool", "prometheus");
        var directory = Directory.CreateTempSubdirectory("syncdata-promtool-");
        try
        {
            // Services and Prometheus on the host: checked as written.
            var hostConfig = Path.Combine(Root, PrometheusHostConfig);
            var (hostExit, hostOut, hostErr) = await RunAsync(promtool, ["check", "config", hostConfig], Root, "prometheus");
            Assert.True(hostExit == 0, hostOut + hostErr);
            Assert.Equal(
                [("SomeService", "/metrics", "127.0.0.1:5180"), ("SyncDataSource", "/metrics", "127.0.0.1:5190")],
                ScrapeJobs(File.ReadAllText(hostConfig)));

            // The debug stack's config: its otlp: block is a Prometheus 3 section (checked below against the keys
            // Prometheus 3 knows); everything else, scrape jobs included, by promtool.
            var stripped = StrippedPrometheusConfig();
            var path = Path.Combine(directory.FullName, "prometheus.yml");
            await File.WriteAllTextAsync(path, stripped.Config);
            var (exit, stdout, stderr) = await RunAsync(promtool, ["check", "config", path], Root, "prometheus");
            Assert.True(exit == 0, stdout + stderr);
            Assert.Contains("SUCCESS", stdout + stderr);

            foreach (var config in new[] { stripped.Config, File.ReadAllText(hostConfig) })
            {
                Assert.Matches(@"(?m)^  scrape_interval: 1s\s*$", config);
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
    internal static List<(string Job, string Path, string Target)> ScrapeJobs(string config)
    {
        var jobs = new List<(string, string, string)>();
        foreach (var block in Regex.Split(config, @"(?m)^  - job_name:").Skip(1))
        {
            var job = block.Split('\n')[0].Trim();
            var path = Regex.Match(block, @"(?m)^    metrics_path:\s*(\S+)") is { Success: true } m ? m.Groups[1].Value : "/metrics";
            foreach (Match target in Regex.Matches(Regex.Match(block, @"targets:\s*\[(?<t>[^\]]*)\]").Groups["t"].Value, "\"([^\"]+)\""))
            {
                jobs.Add((job, path, target.Groups[1].Value));
            }
        }

        return jobs;
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
        var argumentList = arguments.ToList();
        var options = new ChildProcessOptions
        {
            WorkingDirectory = workingDirectory,
            Environment = environment?.ToDictionary(e => e.Key, string? (e) => e.Value),
            KeepAllOutput = true,
        };
        try
        {
            var result = await ChildProcess.RunAsync(Path.IsPathRooted(tool) ? tool : RequireTool(tool, aptPackage), argumentList, options, TimeSpan.FromSeconds(60));
            return (result.ExitCode, result.StandardOutput, result.StandardError);
        }
        catch (TimeoutException)
        {
            Assert.Fail($"{tool} {string.Join(' ', argumentList)} did not finish in 60 s.");
            throw;
        }
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

internal sealed record DashboardQuery(QueryKind Kind, string Where, string Expr, string? Legend, string? DatasourceUid, bool Instant = false);

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

    /// <param name="values">Values that replace the defaults (a service for $job, the time range for $__range).</param>
    public static string Substitute(string expr, IReadOnlyDictionary<string, string>? values = null)
    {
        var result = Regex.Replace(expr, @"\$\{(?<name>\w+)(?::\w+)?\}|\$(?<name>\w+)", m =>
            (values?.TryGetValue(m.Groups["name"].Value, out var given) == true ? given : null) is { } value
            || Variables.TryGetValue(m.Groups["name"].Value, out value)
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
                        target.TryGetProperty("legendFormat", out var legend) ? legend.GetString() : null, Uid(target),
                        target.TryGetProperty("instant", out var instant) && instant.GetBoolean()));
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

// ==================================================================== processes

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
