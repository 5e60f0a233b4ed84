using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using SyncData.Harness;
using SyncData.ServiceDefaults;
using SyncData.Shared;
using Xunit;
using Xunit.Abstractions;

namespace SyncDataBenchmark.AppHost.Tests;

/// <summary>
/// The pair on .NET Aspire, end to end: the AppHost started as a user starts it, a verified sync run, its one trace
/// across both services and both databases in the dashboard, Prometheus scraping both services, and the dashboard
/// seen in a real browser (Debian's chromium through puppeteer-core).
/// </summary>
[Trait("Tier", "Engine")]
public sealed class AppHostTests(AspireLab lab, ITestOutputHelper output) : IClassFixture<AspireLab>
{
    [Fact]
    public async Task SyncRunIsOneTraceAcrossBothServicesAndDatabases()
    {
        var run = await VerifiedRunAsync();

        var (spans, incomplete) = await lab.Telemetry.WaitForRunTraceAsync(run.Id, trace => WhatTheTraceLacks(trace, run.Id), AspireLab.TracePatience);

        Assert.True(incomplete is null, $"Run {run.Id}'s trace is incomplete: {incomplete}. Its spans:\n{string.Join('\n', spans)}");
        output.WriteLine($"Run {run.Id}: one trace of {spans.Count} spans, {spans.Count(s => s.Service == "SyncDataSource")} in SyncDataSource, " +
            $"{spans.Count(s => s.Scope == "Npgsql")} Npgsql.");

        // Prometheus (Debian's, with prometheus.host.yml moved to the services' ports) scrapes both and sees the run.
        using var prometheus = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{lab.PrometheusPort}/"), Timeout = TimeSpan.FromSeconds(30) };
        var up = await PollAsync(async () => await QueryAsync(prometheus, "up == 1") is { } jobs && jobs.Contains("SomeService") && jobs.Contains("SyncDataSource")
            && await QueryAsync(prometheus, "sync_runs_total") is { Count: > 0 });
        Assert.True(up, "Prometheus did not scrape both services up, with sync_runs_total, in time.");
    }

    [Fact]
    public async Task DashboardInChromiumShowsTheRunsTraceAndTheLabsMeters()
    {
        var run = await VerifiedRunAsync();
        var (spans, incomplete) = await lab.Telemetry.WaitForRunTraceAsync(run.Id, trace => WhatTheTraceLacks(trace, run.Id), AspireLab.TracePatience);
        Assert.True(incomplete is null, $"Run {run.Id}'s trace never arrived complete: {incomplete}");

        var browser = Path.Combine(AspireLab.RepositoryRoot(), "SyncDataBenchmark", "SyncDataBenchmark.AppHost.Tests", "Browser");
        Assert.True(Directory.Exists(Path.Combine(browser, "node_modules", "puppeteer-core")), "puppeteer-core is not installed: scripts/ensure-deps.sh runs npm ci in " + browser);
        Assert.True(File.Exists("/usr/bin/chromium"), "Debian's chromium is not installed: scripts/ensure-deps.sh installs it (apt-get install chromium).");
        var pictures = AspireLab.OutputDirectory(nameof(DashboardInChromiumShowsTheRunsTraceAndTheLabsMeters));
        var result = await ChildProcess.RunAsync("node",
            ["capture-dashboard.mjs", lab.Dashboard.ToString().TrimEnd('/'), lab.BrowserToken, spans[0].TraceId, "SomeService", run.Id.ToString(), pictures],
            new ChildProcessOptions { WorkingDirectory = browser, KeepAllOutput = true }, AspireLab.Patience);
        Assert.True(result.ExitCode == 0, $"The browser script failed ({result.ExitCode}):\n{result.StandardError}\n{result.StandardOutput}");

        using var pages = JsonDocument.Parse(result.StandardOutput.Trim().Split('\n')[^1]);
        foreach (var name in new[] { "trace", "metrics" })
        {
            var page = pages.RootElement.GetProperty(name);
            var picture = page.GetProperty("picture").GetString()!;
            output.WriteLine($"{name}: {page.GetProperty("url").GetString()} → {picture} ({new FileInfo(picture).Length:N0} bytes)");
            Assert.True(page.GetProperty("found").GetBoolean(),
                $"The dashboard's {name} page never showed {page.GetProperty("missing")}; it showed:\n{page.GetProperty("text").GetString()}");
            // A page drawn, not blank: a blank 1600×1000 PNG is a few kilobytes.
            Assert.True(new FileInfo(picture).Length > 30_000, $"{picture} is nearly empty: the page was not drawn.");
        }
    }

    /// <summary>A NpgsqlCopy × NpgsqlCopy run over the seeded table, waited for and verified by SomeService.</summary>
    private async Task<RunResult> VerifiedRunAsync()
    {
        using var response = await lab.SomeService.TriggerAsync("NpgsqlCopy", "NpgsqlCopy", wait: true);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var run = await response.Content.ReadFromJsonAsync(SyncJsonContext.Default.RunResult);
        Assert.NotNull(run);
        Assert.Equal(RunStatus.Succeeded, run.Status);
        Assert.True(run.Verified, $"Run {run.Id} did not verify: {run.Error}");
        Assert.Equal(AspireLab.SeedRows, run.Rows);
        return run;
    }

    /// <summary>What the run's trace still lacks (null: nothing): both services, each one's database spans, the run's id on every span.</summary>
    internal static string? WhatTheTraceLacks(IReadOnlyList<OtlpSpan> trace, Guid run)
    {
        var lacks = new List<string>();
        if (!trace.Any(s => s.Service == "SomeService" && s.Name.StartsWith("GET /sync", StringComparison.Ordinal)))
        {
            lacks.Add("SomeService's GET /sync span");
        }

        if (!trace.Any(s => s.Service == "SyncDataSource"))
        {
            lacks.Add("any SyncDataSource span");
        }

        foreach (var (service, database) in new[] { ("SomeService", "target"), ("SyncDataSource", "source") })
        {
            if (!trace.Any(s => s.Service == service && s.Scope == "Npgsql" && s.Database == database))
            {
                lacks.Add($"{service}'s Npgsql spans on {database}");
            }
        }

        var untagged = trace.Where(s => s.Attribute(RunTelemetry.RunIdKey) != run.ToString()).ToList();
        if (untagged.Count > 0)
        {
            lacks.Add($"the run's id on {untagged.Count} of {trace.Count} spans (e.g. {untagged[0]})");
        }

        return lacks.Count == 0 ? null : string.Join("; ", lacks);
    }

    /// <summary>The job labels of an instant query's series.</summary>
    private static async Task<List<string>?> QueryAsync(HttpClient prometheus, string query)
    {
        try
        {
            using var json = JsonDocument.Parse(await prometheus.GetStringAsync("api/v1/query?query=" + Uri.EscapeDataString(query)));
            return json.RootElement.GetProperty("data").GetProperty("result").EnumerateArray()
                .Select(r => r.GetProperty("metric").TryGetProperty("job", out var job) ? job.GetString() ?? "" : "").ToList();
        }
        catch (HttpRequestException)
        {
            return null;
        }
    }

    private static async Task<bool> PollAsync(Func<Task<bool>> condition)
    {
        var until = DateTime.UtcNow + AspireLab.Patience;
        while (DateTime.UtcNow < until)
        {
            if (await condition())
            {
                return true;
            }

            await Task.Delay(TimeSpan.FromSeconds(1));
        }

        return false;
    }
}
