using System.Collections.Concurrent;
using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using SyncData.Harness;
using SyncData.ServiceDefaults;
using SyncData.Shared;
using SyncDataSource.Measurement;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// SyncDataSource measures itself over the requests of one run (README, "How a run is measured"): no endpoint opens
/// or closes anything, a window that cannot be trusted gives no figures and says why, and none of it can fail a run.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class RunMeasurementTests
{
    private static RunMeasurement Started()
    {
        var measurement = new RunMeasurement(new RuntimeWindow(), NullLogger<RunMeasurement>.Instance);
        measurement.CollectBaseline(); // what the service does at startup
        return measurement;
    }

    [Fact]
    public void A_run_opened_by_its_requests_and_closed_by_its_verification_has_figures()
    {
        var measurement = Started();
        var run = Guid.NewGuid();

        measurement.Enter(run);
        var bytes = new byte[1 << 20];
        measurement.Enter(run); // a later page of the same run
        GC.KeepAlive(bytes);
        var (figures, missing) = measurement.Close(run);

        Assert.Null(missing);
        Assert.NotNull(figures);
        Assert.NotEmpty(figures.Samples ?? []);
        Assert.True(figures.PeakWorkingSetBytes > 0);
    }

    [Fact]
    public void A_run_the_source_never_served_has_no_figures_and_says_so()
    {
        var (figures, missing) = Started().Close(Guid.NewGuid());

        Assert.Null(figures);
        Assert.Equal("SyncDataSource served no fetch request of this run", missing);
    }

    [Fact]
    public void Figures_go_out_once_and_a_late_request_reopens_nothing()
    {
        var measurement = Started();
        var run = Guid.NewGuid();
        measurement.Enter(run);
        Assert.NotNull(measurement.Close(run).Figures);

        measurement.Enter(run);
        var (figures, missing) = measurement.Close(run);

        Assert.Null(figures);
        Assert.Contains("sent with its first verification answer", missing);
    }

    [Fact]
    public async Task A_run_that_never_verified_costs_the_next_run_its_figures_but_not_the_one_after()
    {
        var measurement = Started();
        var unfinished = Guid.NewGuid();
        var next = Guid.NewGuid();
        var after = Guid.NewGuid();

        measurement.Enter(unfinished);
        measurement.Enter(next);
        var (figures, missing) = measurement.Close(next);
        await measurement.BaselineCollection;
        measurement.Enter(after);
        var clean = measurement.Close(after);

        Assert.Null(figures);
        Assert.Contains($"run {unfinished}'s window was still open", missing);
        Assert.Contains("given up", measurement.Close(unfinished).Missing);
        Assert.NotNull(clean.Figures);
    }

    [Fact]
    public async Task A_run_that_failed_at_the_source_ends_its_window_so_the_next_one_starts_clean()
    {
        var measurement = Started();
        var failed = Guid.NewGuid();
        var next = Guid.NewGuid();

        measurement.Enter(failed);
        measurement.Abandon(failed, "answered 422");
        await measurement.BaselineCollection;
        measurement.Enter(next);

        Assert.NotNull(measurement.Close(next).Figures);
        Assert.Contains("answered 422", measurement.Close(failed).Missing);
    }

    [Fact]
    public void A_window_that_opens_before_any_baseline_collection_gives_no_figures()
    {
        var measurement = new RunMeasurement(new RuntimeWindow(), NullLogger<RunMeasurement>.Instance);
        var run = Guid.NewGuid();

        measurement.Enter(run);
        var (figures, missing) = measurement.Close(run);

        Assert.Null(figures);
        Assert.Contains("baseline collection", missing);
    }
}

/// <summary>The same over real HTTP, in process: the manual flow, the tags, and a run that loses its source figures but not its result.</summary>
[Collection(InProcessCollection.Name)]
public sealed class MeasurementTests(InProcessLab lab)
{
    [Theory]
    [InlineData("runtime/window/start")]
    [InlineData("runtime/window/stop")]
    public async Task No_endpoint_opens_or_closes_a_window(string path)
    {
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source);

        using var atSource = await source.CreateClient().PostAsync(path, null);
        using var atSomeService = await someService.CreateClient().PostAsync(path, null);

        Assert.Equal(HttpStatusCode.NotFound, atSource.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, atSomeService.StatusCode);
    }

    [Fact]
    public async Task The_manual_flow_with_no_settings_reports_both_services_figures()
    {
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));

        var run = await InProcessLab.SyncAsync(someService.CreateClient(), "EFKeysetPaging", "NpgsqlCopy");

        Assert.True(run.Verified, run.Error);
        Assert.NotNull(run.SomeService);
        Assert.NotNull(run.SyncDataSource);
        Assert.NotEmpty(run.SyncDataSource.Samples ?? []);
    }

    [Fact]
    public async Task Untagged_requests_are_no_run_and_a_summary_without_a_tag_has_no_figures()
    {
        await using var source = lab.Source();
        var client = source.CreateClient();

        using var page = await client.GetAsync("users/keyset?limit=10");
        var summary = await System.Net.Http.Json.HttpClientJsonExtensions.GetFromJsonAsync(client, SourceRoutes.Summary, SyncJsonContext.Default.SourceSummary);

        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal(InProcessLab.Rows, summary!.Rows);
        Assert.Null(summary.Figures);
        Assert.Null(summary.FiguresMissing);
    }

    [Fact]
    public async Task A_tagged_request_the_source_refuses_ends_the_runs_window()
    {
        await using var source = lab.Source();
        var client = source.CreateClient();
        var run = Guid.NewGuid();

        using var bad = new HttpRequestMessage(HttpMethod.Get, "users/keyset?limit=0");
        bad.Headers.Add(SourceRoutes.RunHeader, run.ToString());
        using var refused = await client.SendAsync(bad);
        using var verify = new HttpRequestMessage(HttpMethod.Get, SourceRoutes.Summary);
        verify.Headers.Add(SourceRoutes.RunHeader, run.ToString());
        using var answer = await client.SendAsync(verify);
        var summary = await System.Net.Http.Json.HttpContentJsonExtensions.ReadFromJsonAsync(answer.Content, SyncJsonContext.Default.SourceSummary);

        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Null(summary!.Figures);
        Assert.Contains("answered 400", summary.FiguresMissing);
    }

    [Fact]
    public async Task A_run_whose_source_window_cannot_be_trusted_still_verifies_and_says_why_it_has_no_source_figures()
    {
        var log = new ConcurrentQueue<string>();
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source, log: log);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        // Another client tags a request as its own run and never verifies it: the source's window for it stays open.
        using var foreign = new HttpRequestMessage(HttpMethod.Get, "users/keyset?limit=1");
        var stranger = Guid.NewGuid();
        foreign.Headers.Add(SourceRoutes.RunHeader, stranger.ToString());
        using var _ = await source.CreateClient().SendAsync(foreign);

        var run = await InProcessLab.SyncAsync(someService.CreateClient(), "NpgsqlCopy", "NpgsqlCopy");

        Assert.True(run.Verified, run.Error);
        Assert.NotNull(run.SomeService);
        Assert.Null(run.SyncDataSource);
        Assert.Contains(log, l => l.Contains("SyncDataSource sent no figures for this run", StringComparison.Ordinal) && l.Contains(stranger.ToString(), StringComparison.Ordinal));
    }
}
