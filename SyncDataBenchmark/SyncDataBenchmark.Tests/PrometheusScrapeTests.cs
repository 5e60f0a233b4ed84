using System.Globalization;
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
/// 20,000 rows; SomeService reaches the source through a <see cref="ThrottleProxy"/> so a run can be slowed to a few
/// seconds and be seen in progress by a scrape every second.
/// </summary>
public sealed class ScrapeLab : LabFixture
{
    public const long Rows = 20_000;

    public ThrottleProxy Proxy { get; }

    public ScrapeLab() => Proxy = new ThrottleProxy(() => Source.BaseAddress);

    protected override long SeedRows => Rows;

    /// <summary>
    /// SomeService without DATAS, SyncDataSource with it (the default profile): under DATAS the runtime's
    /// allocated-bytes counter behind the dashboards' allocation panels can stand still (README "Observability"),
    /// so "what did this run cost" can be checked against the run's own figure only for a service without it.
    /// </summary>
    protected override IReadOnlyDictionary<string, string> SomeServiceSettings => RuntimeProfiles.Tuned.Environment;

    protected override Uri SourceAddressForSomeService => Proxy.BaseAddress;

    /// <summary>Slows every response from the source (bursts with pauses between them), so a small run lasts long enough to be scraped mid-run.</summary>
    public IDisposable Slow()
    {
        Proxy.BurstBytes = 64 * 1024;
        Proxy.PauseBetweenBursts = TimeSpan.FromMilliseconds(100);
        return new Reset(Proxy);
    }

    private sealed class Reset(ThrottleProxy proxy) : IDisposable
    {
        public void Dispose() => proxy.Reset();
    }

    public override async Task DisposeAsync()
    {
        await Proxy.DisposeAsync();
        await base.DisposeAsync();
    }
}

[CollectionDefinition(Name)]
public sealed class ScrapeCollection : ICollectionFixture<ScrapeLab>
{
    public const string Name = "scrape";
}

/// <summary>
/// GET /metrics on the real services, scraped by a real Prometheus (Debian's, as CI installs it) with the committed
/// prometheus/prometheus.host.yml, while real runs move rows; then every dashboard expression asked of it.
/// </summary>
[Collection(ScrapeCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class PrometheusScrapeTests(ScrapeLab lab, ITestOutputHelper output)
{
    private static readonly string[] Jobs = ["SomeService", "SyncDataSource"];

    /// <summary>prometheus/prometheus.host.yml's scrape_interval.</summary>
    private static readonly TimeSpan ScrapeInterval = TimeSpan.FromSeconds(1);

    private static readonly (string Fetch, string Insert)[] Scenario =
    [
        ("NpgsqlCopy", "NpgsqlCopy"),
        ("EFStream", "EFTypical"),
        ("EFKeysetPaging", "NpgsqlCopy"),
        ("NpgsqlCopy", "NpgsqlCopyRaw"),
    ];

    /// <summary>The endpoint dashboard's $route and $method for each service: a route every scenario run calls.</summary>
    private static readonly Dictionary<string, (string Route, string Method)> Endpoints = new()
    {
        ["SomeService"] = ("/sync", "GET"),
        ["SyncDataSource"] = ("/users/copy", "GET"),
    };

    // Family names as the official exporter writes them (every sample also carries otel_scope_name, hence no
    // fixed label order in the patterns below).
    private static readonly string[] RequiredEverywhere =
    [
        "http_server_request_duration_seconds_bucket", "http_server_active_requests", "kestrel_active_connections",
        "dotnet_gc_collections_total", "dotnet_gc_pause_time_seconds_total", "dotnet_gc_heap_total_allocated_bytes_total",
        "dotnet_process_memory_working_set_bytes", "dotnet_process_cpu_time_seconds_total",
        "db_client_operation_duration_seconds_bucket", "db_client_operation_npgsql_bytes_read_bytes_total", "target_info",
    ];

    private static readonly string[] RequiredInSomeService =
    [
        "http_client_request_duration_seconds_bucket", "sync_runs_total", "sync_rows_written_total", "sync_run_in_progress",
        "sync_run_duration_seconds_bucket",
    ];

    /// <summary>
    /// promtool's lint complaints accepted, each about an instrument that is not ours: gauges whose names the .NET
    /// runtime (dotnet.assembly.count, dotnet.process.cpu.count, dotnet.timer.count) and OpenTelemetry's database
    /// semantic conventions (db.client.connection.count, from Npgsql) fix, which the exporter, like Prometheus 3's
    /// own OTLP translation, turns into *_count gauges. Renaming them in our code is what the lab does not do; any
    /// other complaint, e.g. about the lab's own sync_* instruments, fails the test.
    /// </summary>
    private static readonly string[] AcceptedLint =
    [
        "db_client_connection_count non-histogram and non-summary metrics should not have \"_count\" suffix",
        "dotnet_assembly_count non-histogram and non-summary metrics should not have \"_count\" suffix",
        "dotnet_process_cpu_count non-histogram and non-summary metrics should not have \"_count\" suffix",
        "dotnet_timer_count non-histogram and non-summary metrics should not have \"_count\" suffix",
    ];

    [Fact]
    public async Task Both_services_answer_metrics_from_the_official_exporter_and_promtool_complains_only_about_the_runtimes_names()
    {
        // One run first, so HttpClient, Npgsql and the lab's own instruments have values to show.
        var run = await lab.SyncAsync("NpgsqlCopy", "NpgsqlCopy");
        Assert.Equal(RunStatus.Succeeded, run.Status);

        foreach (var (service, required) in new[] { (lab.SomeService, RequiredEverywhere.Concat(RequiredInSomeService)), (lab.Source, RequiredEverywhere) })
        {
            using var http = new HttpClient { BaseAddress = service.BaseAddress };
            using var response = await http.GetAsync("metrics");
            var text = await response.Content.ReadAsStringAsync();
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal("text/plain; version=0.0.4; charset=utf-8", response.Content.Headers.ContentType?.ToString());
            foreach (var name in required)
            {
                Assert.True(Regex.IsMatch(text, $"(?m)^{Regex.Escape(name)}[{{ ]"), $"{service.Name} /metrics has no {name}:\n{text}");
            }

            // Written by the official exporter: every sample names its meter, which the lab's writer never did.
            Assert.Matches("(?m)^dotnet_gc_collections_total\\{otel_scope_name=\"System.Runtime\",gc_heap_generation=\"gen0\"\\} \\d+$", text);
            var (exit, stdout, stderr) = await Tools.CheckMetricsAsync(text);
            var complaints = (stdout + stderr).Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
            var unexpected = complaints.Except(AcceptedLint).ToArray();
            Assert.True(unexpected.Length == 0 && (exit == 0) == (complaints.Length == 0),
                $"promtool check metrics on {service.Name}'s scrape ({exit}), not accepted:\n{string.Join('\n', unexpected)}\n---\n{text}");
            output.WriteLine($"{service.Name}: {text.Split('\n').Count(l => l.Length > 0 && l[0] != '#')} samples; promtool: {complaints.Length} accepted complaints");
        }

        // sync.run.duration buckets reach an hour: a run of minutes lands in a bucket of its own, not in +Inf.
        var some = await lab.Client.GetStringAsync("metrics");
        foreach (var bound in new[] { "0.1", "1", "60", "600", "3600", "+Inf" })
        {
            Assert.Matches($"(?m)^sync_run_duration_seconds_bucket\\{{[^}}]*fetch=\"NpgsqlCopy\",insert=\"NpgsqlCopy\",le=\"{Regex.Escape(bound)}\"\\}} \\d+$", some);
        }
    }

    /// <summary>
    /// The exporter caches its response 300 ms by default; the services turn that off, so a scrape right after a run
    /// (as these tests and a curl after a run do) sees the figures of that moment, not of the scrape before. One
    /// connection for all the requests: Kestrel records a request's duration before it reads the next request on its
    /// connection, so the scrape sees the last /health counted without a pause that a busy machine could outlast.
    /// </summary>
    [Fact]
    public async Task A_scrape_right_after_another_sees_what_happened_in_between()
    {
        using var http = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = 1 }) { BaseAddress = lab.Source.BaseAddress };
        var before = HealthRequests(await http.GetStringAsync("metrics"));
        for (var i = 0; i < 3; i++)
        {
            (await http.GetAsync("health")).EnsureSuccessStatusCode();
        }

        var after = HealthRequests(await http.GetStringAsync("metrics"));
        Assert.True(after >= before + 3, $"/health requests counted {before} then {after}: the second scrape was not fresh");
    }

    private static long HealthRequests(string text) =>
        Regex.Matches(text, "(?m)^http_server_request_duration_seconds_count\\{[^}]*http_route=\"/health\"[^}]*\\} (\\d+)$")
            .Sum(m => long.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture));

    [Theory]
    [InlineData("NpgsqlCopy", "NpgsqlCopy")]
    [InlineData("NpgsqlCopy", "NpgsqlCopyRaw")]
    [InlineData("EFStream", "EFTypical")]
    public async Task Rows_written_grows_while_rows_move_not_once_at_the_end(string fetch, string insert)
    {
        var before = await RowsWrittenAsync(fetch, insert);
        var seen = new List<long>();
        RunResult run;
        using (lab.Slow())
        {
            var started = await lab.StartSyncAsync($"{fetch}", $"{insert}");
            while (true)
            {
                var current = await lab.GetRunAsync(started.Id);
                seen.Add(await RowsWrittenAsync(fetch, insert));
                if (current.Status != RunStatus.Running)
                {
                    run = current;
                    break;
                }

                await Task.Delay(100);
            }
        }

        Assert.Equal(RunStatus.Succeeded, run.Status);
        var after = await RowsWrittenAsync(fetch, insert);
        Assert.Equal(before + ScrapeLab.Rows, after);
        var during = seen.Where(v => v > before && v < after).Distinct().ToArray();
        output.WriteLine($"{fetch} × {insert}: sync_rows_written_total seen at {string.Join(", ", seen.Distinct())} (before {before}, after {after})");
        Assert.True(during.Length >= 2, $"sync_rows_written_total was not seen growing during the run: {string.Join(", ", seen)} (before {before}, after {after})");
    }

    [Fact]
    public async Task Prometheus_scraping_both_services_answers_every_dashboard_expression_with_data()
    {
        await using var prometheus = await StartScrapingPrometheusAsync();
        using var api = new HttpClient { BaseAddress = prometheus.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };
        var windowStart = DateTimeOffset.UtcNow.AddSeconds(-2);

        // A client error on each service, so the 4xx share has something to show.
        using (var bad = await lab.Api.TriggerAsync("NoSuchFetch", "NpgsqlCopy"))
        {
            Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
        }

        using (var missing = await lab.SourceClient.GetAsync("no-such-endpoint"))
        {
            Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        }

        await FollowBrieflyAsync(api);
        var runs = new List<(RunResult Run, DateTimeOffset Start, DateTimeOffset End)>();
        using (lab.Slow())
        {
            foreach (var (fetch, insert) in Scenario)
            {
                var start = DateTimeOffset.UtcNow;
                var run = await lab.SyncAsync($"{fetch}", $"{insert}");
                runs.Add((run, start, DateTimeOffset.UtcNow));
                Assert.True(run.Status == RunStatus.Succeeded, run.Error);
                output.WriteLine($"{fetch} × {insert}: {run.DurationMs:N0} ms");
            }
        }

        await WaitForScrapesAfterAsync(api, runs[^1].End + ScrapeInterval); // the last runs' final values, scraped
        var windowEnd = DateTimeOffset.UtcNow;
        var range = $"{(int)Math.Ceiling((windowEnd - windowStart).TotalSeconds)}s";

        var answered = new List<string>();
        var empty = new List<string>();
        var dashboards = Dashboards.Load(Path.Combine(Lab.RepositoryRoot, "grafana/dashboards"));
        foreach (var dashboard in dashboards)
        {
            foreach (var query in dashboard.Queries)
            {
                foreach (var job in query.Expr.Contains("$job", StringComparison.Ordinal) ? Jobs : ["-"])
                {
                    var values = new Dictionary<string, string> { ["__range"] = range };
                    if (job != "-")
                    {
                        values["job"] = job;
                        (values["route"], values["method"]) = Endpoints[job];
                    }

                    var expr = Dashboards.Substitute(query.Expr, values);
                    var (hasData, body) = await AskAsync(api, query, expr, windowStart, windowEnd);
                    var key = $"{dashboard.Title} / {query.Where} / {job}";
                    var line = $"{key}: {expr}";
                    if (hasData)
                    {
                        answered.Add(line);
                    }
                    else
                    {
                        empty.Add($"{line}\n    {Shorten(body)}");
                    }
                }
            }
        }

        // Every panel shows data in a healthy run: expressions that would be empty there end in "or vector(0)".
        output.WriteLine($"{answered.Count} of {answered.Count + empty.Count} dashboard expressions (× service where $job is used) returned data; {empty.Count} empty.");
        foreach (var line in answered)
        {
            output.WriteLine("  data:    " + line);
        }

        Assert.True(empty.Count == 0, $"{empty.Count} dashboard expressions returned no data:\n{string.Join('\n', empty)}");
        Assert.True(answered.Count >= 40, $"only {answered.Count} expressions answered");

        // "What did this run cost": the Memory allocated panel over one run's time range, for each service, agrees with
        // the run's own measurement (the allocation-heavy EFStream × EFTypical run). Loosely: increase() extrapolates to
        // the range's edges and scrapes fall a second apart, while the run measures exactly its own window.
        var (costly, costlyStart, costlyEnd) = runs.Single(r => r.Run.Insert == "EFTypical");
        var allocated = dashboards.Single(d => d.Title == "Sync runs").Queries.Single(q => q.Where == "panel 'Memory allocated' A");
        var at = costlyEnd.AddSeconds(1.5); // the scrape after the run ended
        foreach (var (job, figure) in new[] { ("SomeService", costly.SomeService!.AllocatedBytes), ("SyncDataSource", costly.SyncDataSource!.AllocatedBytes) })
        {
            // Under DATAS the runtime's imprecise allocated-bytes counter (dotnet_gc_heap_total_allocated_bytes_total) can
            // stand still for a whole run while the run's precise figure counts every byte: not comparable there.
            var figures = (job == "SomeService" ? costly.SomeService : costly.SyncDataSource)!;
            if (figures.Runtime is { Datas: true })
            {
                output.WriteLine($"{job}: runs with DATAS (default profile): its 'Memory allocated' panel is not compared (README \"Observability\")");
                continue;
            }

            var measured = Assert.IsType<long>(figure);

            var expr = Dashboards.Substitute(allocated.Expr, new Dictionary<string, string>
            {
                ["job"] = job,
                ["__range"] = $"{(int)Math.Ceiling((at - costlyStart).TotalSeconds)}s",
            });
            var (hasData, body) = await AskAsync(api, allocated, expr, costlyStart, at);
            Assert.True(hasData, body);
            using var json = JsonDocument.Parse(body);
            var shown = double.Parse(json.RootElement.GetProperty("data").GetProperty("result")[0].GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture);
            output.WriteLine($"{costly.Fetch} × {costly.Insert}, {job}: dashboard 'Memory allocated' {shown / 1048576:N1} MiB, run measured {measured / 1048576.0:N1} MiB");
            Assert.InRange(shown, measured * 0.5, measured * 2.5);
        }

        // The "Sync runs" annotation marks every case the scenario ran.
        var annotation = dashboards.SelectMany(d => d.Queries).First(q => q.Kind == QueryKind.Annotation);
        var (_, annotations) = await AskAsync(api, annotation, Dashboards.Substitute(annotation.Expr), windowStart, windowEnd);
        foreach (var (fetch, insert) in Scenario)
        {
            Assert.Contains($"\"fetch\":\"{fetch}\",\"insert\":\"{insert}\"", annotations);
        }
    }

    private static async Task<(bool HasData, string Body)> AskAsync(HttpClient api, DashboardQuery query, string expr, DateTimeOffset start, DateTimeOffset end)
    {
        var from = start.ToUnixTimeMilliseconds() / 1000.0;
        var to = end.ToUnixTimeMilliseconds() / 1000.0;
        string Time(double t) => t.ToString("0.###", CultureInfo.InvariantCulture);
        string url;
        if (query.Kind == QueryKind.Variable)
        {
            var labelValues = Regex.Match(expr, @"^label_values\((?:(?<selector>.+),\s*)?(?<label>[a-zA-Z_][a-zA-Z0-9_]*)\)$");
            Assert.True(labelValues.Success, expr);
            url = $"api/v1/label/{labelValues.Groups["label"].Value}/values?start={Time(from)}&end={Time(to)}"
                  + (labelValues.Groups["selector"].Success ? "&match[]=" + Uri.EscapeDataString(labelValues.Groups["selector"].Value) : "");
        }
        else if (query.Instant)
        {
            url = $"api/v1/query?time={Time(to)}&query={Uri.EscapeDataString(expr)}";
        }
        else
        {
            // As Grafana asks a time series panel or an annotation: a range query, one point a second.
            url = $"api/v1/query_range?start={Time(from)}&end={Time(to)}&step=1&query={Uri.EscapeDataString(expr)}";
        }

        using var response = await api.GetAsync(url);
        var body = await response.Content.ReadAsStringAsync();
        using var json = JsonDocument.Parse(body);
        Assert.True(json.RootElement.GetProperty("status").GetString() == "success", $"Prometheus rejected {expr}:\n{body}");
        var data = json.RootElement.GetProperty("data");
        var hasData = query.Kind == QueryKind.Variable
            ? data.GetArrayLength() > 0
            : data.GetProperty("result").EnumerateArray().Any(series =>
                series.TryGetProperty("values", out var points) ? points.GetArrayLength() > 0 : series.TryGetProperty("value", out _));
        return (hasData, body);
    }

    /// <summary>Debian's Prometheus with prometheus/prometheus.host.yml, its two targets moved to the lab's ports.</summary>
    private async Task<PrometheusServer> StartScrapingPrometheusAsync()
    {
        var config = await File.ReadAllTextAsync(Path.Combine(Lab.RepositoryRoot, ObservabilityTests.PrometheusHostConfig));
        foreach (var (committed, actual) in new[] { ("127.0.0.1:5180", lab.SomeService.BaseAddress), ("127.0.0.1:5190", lab.Source.BaseAddress) })
        {
            Assert.Contains($"\"{committed}\"", config);
            config = config.Replace($"\"{committed}\"", $"\"{actual.Authority}\"", StringComparison.Ordinal);
        }

        var prometheus = await PrometheusServer.StartAsync(config);
        using var api = new HttpClient { BaseAddress = prometheus.BaseAddress };
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (true)
        {
            var body = await api.GetStringAsync("api/v1/query?query=" + Uri.EscapeDataString("up == 1"));
            if (Jobs.All(job => body.Contains($"\"job\":\"{job}\"", StringComparison.Ordinal)))
            {
                return prometheus;
            }

            if (DateTime.UtcNow > deadline)
            {
                using var targets = JsonDocument.Parse(await api.GetStringAsync("api/v1/targets"));
                var states = targets.RootElement.GetProperty("data").GetProperty("activeTargets").EnumerateArray()
                    .Select(t => $"{t.GetProperty("scrapeUrl").GetString()}: {t.GetProperty("health").GetString()} {t.GetProperty("lastError").GetString()}");
                await prometheus.DisposeAsync();
                Assert.Fail($"Prometheus did not scrape both services within 60 s:\n{string.Join('\n', states)}");
            }

            await Task.Delay(250);
        }
    }

    /// <summary>Waits until Prometheus has scraped both services at a time after <paramref name="after"/>.</summary>
    /// <summary>
    /// NpgsqlReplication following users through a few source transactions (updates that leave every value as it was,
    /// so the lab's source keeps its rows), scraped while it follows, so the follow panels have data; stopped with its
    /// slot and publication dropped before the runs, which reload the target's users.
    /// </summary>
    private async Task FollowBrieflyAsync(HttpClient api)
    {
        var route = $"{SyncRoutes.Follow}/users";
        using (var started = await lab.Client.PostAsync($"{route}?slot=scrape_follow&batch=10", null))
        {
            Assert.True(started.StatusCode == HttpStatusCode.Accepted, await started.Content.ReadAsStringAsync());
        }

        try
        {
            await FollowedPair.WaitForAsync(lab.Client, route, s => s.State == FollowStatus.Following);
            for (var i = 0; i < 5; i++)
            {
                await Lab.ScalarAsync(lab.SourceDb, "update users set name = name where id in (select id from users order by id limit 3)");
            }

            await FollowedPair.WaitForAsync(lab.Client, route, s => s.TransactionsApplied >= 5);
            await WaitForScrapesAfterAsync(api, DateTimeOffset.UtcNow + ScrapeInterval);
        }
        finally
        {
            using var stopped = await lab.Client.DeleteAsync($"{route}?drop=true");
            Assert.Equal(HttpStatusCode.OK, stopped.StatusCode);
        }
    }

    private static async Task WaitForScrapesAfterAsync(HttpClient api, DateTimeOffset after)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (true)
        {
            using var json = JsonDocument.Parse(await api.GetStringAsync("api/v1/query?query=" + Uri.EscapeDataString("timestamp(up)")));
            var scrapedAt = json.RootElement.GetProperty("data").GetProperty("result").EnumerateArray().ToDictionary(
                series => series.GetProperty("metric").GetProperty("job").GetString()!,
                series => double.Parse(series.GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture));
            if (Jobs.All(job => scrapedAt.TryGetValue(job, out var at) && at * 1000 > after.ToUnixTimeMilliseconds()))
            {
                return;
            }

            Assert.True(DateTime.UtcNow < deadline, $"Prometheus did not scrape both services after {after:O} within 60 s: {string.Join(", ", scrapedAt)}");
            await Task.Delay(250);
        }
    }

    private async Task<long> RowsWrittenAsync(string fetch, string insert)
    {
        var text = await lab.Client.GetStringAsync("metrics");
        var match = Regex.Match(text, $"(?m)^sync_rows_written_total\\{{[^}}]*fetch=\"{fetch}\",insert=\"{insert}\"\\}} (\\d+)$");
        return match.Success ? long.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture) : 0;
    }

    private static string Shorten(string text) => text.Length > 300 ? text[..300] + "…" : text;
}
