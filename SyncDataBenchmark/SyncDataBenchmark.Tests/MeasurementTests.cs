using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.Logging.Abstractions;
using SyncData.Harness;
using SyncData.Measurement;
using SyncData.Shared;
using SyncDataSource.Runs;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// SyncDataSource measures itself over each run, from its begin to its end (docs/measuring.md, "How a run is
/// measured"): a window opens only after the baseline collection, one that cannot be trusted gives no figures and says
/// why, and none of it can fail a run.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class RunMeasurementTests
{
    private static RunMeasurement Started() => new(new RuntimeWindow(), NullLogger<RunMeasurement>.Instance);

    [Fact]
    public async Task A_run_begun_and_ended_has_figures()
    {
        var measurement = Started();
        var run = Guid.NewGuid();

        Assert.True(await measurement.BeginAsync(run));
        GC.KeepAlive(new byte[1 << 20]);
        var (figures, missing) = measurement.Close(run);

        Assert.Null(missing);
        Assert.NotNull(figures);
        Assert.NotEmpty(figures.Samples ?? []);
        Assert.True(figures.PeakWorkingSetBytes > 0);
    }

    /// <summary>
    /// The flake of issue 37: a run whose first request came while the previous run's baseline collection was still
    /// running (a busy machine) had its window marked untrusted and no source figures. A begin waits for it.
    /// </summary>
    [Fact]
    public async Task A_run_begun_right_after_the_previous_one_ended_waits_for_the_baseline_collection()
    {
        var measurement = Started();
        var previous = Guid.NewGuid();
        var next = Guid.NewGuid();
        Assert.True(await measurement.BeginAsync(previous));
        Assert.NotNull(measurement.Close(previous).Figures);

        Assert.True(await measurement.BeginAsync(next));
        var collectedBeforeTheWindow = measurement.BaselineCollection.IsCompleted;
        var (figures, missing) = measurement.Close(next);

        Assert.True(collectedBeforeTheWindow, "the window opened while the baseline collection was still running");
        Assert.True(figures is not null, missing);
    }

    [Fact]
    public void A_run_the_source_never_began_has_no_figures_and_says_so()
    {
        var (figures, missing) = Started().Close(Guid.NewGuid());

        Assert.Null(figures);
        Assert.Equal("SyncDataSource never began this run", missing);
    }

    [Fact]
    public async Task Figures_go_out_once_and_a_run_begins_once()
    {
        var measurement = Started();
        var run = Guid.NewGuid();
        Assert.True(await measurement.BeginAsync(run));
        Assert.False(await measurement.BeginAsync(run));
        Assert.NotNull(measurement.Close(run).Figures);

        Assert.False(await measurement.BeginAsync(run));
        var (figures, missing) = measurement.Close(run);

        Assert.Null(figures);
        Assert.Contains("sent with its first end answer", missing);
    }

    [Fact]
    public async Task A_run_that_never_ended_costs_the_next_run_its_figures_but_not_the_one_after()
    {
        var measurement = Started();
        var unfinished = Guid.NewGuid();
        var next = Guid.NewGuid();
        var after = Guid.NewGuid();

        await measurement.BeginAsync(unfinished);
        await measurement.BeginAsync(next);
        var (figures, missing) = measurement.Close(next);
        await measurement.BeginAsync(after);
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

        await measurement.BeginAsync(failed);
        measurement.Abandon(failed, "answered 422");
        await measurement.BeginAsync(next);

        Assert.NotNull(measurement.Close(next).Figures);
        Assert.Contains("answered 422", measurement.Close(failed).Missing);
    }
}

/// <summary>The same over real HTTP, in process: the manual flow, the tags, and a run that loses its source figures but not its result.</summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
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
    public async Task Requests_of_no_run_measure_nothing_and_the_checksum_is_a_plain_read()
    {
        await using var source = lab.Source();
        var client = source.CreateClient();

        using var page = await client.GetAsync("users/keyset?limit=10");
        var checksum = await client.GetFromJsonAsync(SourceRoutes.Checksum, SyncJsonContext.Default.TableChecksum);

        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal(InProcessLab.Rows, checksum!.Rows);
    }

    [Fact]
    public async Task The_checksum_only_reads_the_run_stays_open_until_its_end_which_brings_the_figures()
    {
        await using var source = lab.Source();
        var client = source.CreateClient();
        var run = Guid.NewGuid();

        using var begun = await client.PostAsync(SourceRoutes.Run(run), null);
        using var page = await SendOfRunAsync(client, "users/keyset?limit=10", run);
        var first = await ReadChecksumOfRunAsync(client, run);
        var second = await ReadChecksumOfRunAsync(client, run);
        var ended = await EndAsync(client, run);
        var late = await EndAsync(client, run);

        Assert.Equal(HttpStatusCode.OK, begun.StatusCode);
        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal(first, second);
        Assert.True(ended.Figures is not null, ended.FiguresMissing);
        Assert.NotNull(ended.Snapshot);
        Assert.Null(late.Figures);
        Assert.Contains("sent with its first end answer", late.FiguresMissing);
    }

    [Fact]
    public async Task A_request_of_the_run_the_source_refuses_ends_the_runs_window()
    {
        await using var source = lab.Source();
        var client = source.CreateClient();
        var run = Guid.NewGuid();

        using var begun = await client.PostAsync(SourceRoutes.Run(run), null);
        using var refused = await SendOfRunAsync(client, "users/keyset?limit=0", run);
        var ended = await EndAsync(client, run);

        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Null(ended.Figures);
        Assert.Contains("answered 400", ended.FiguresMissing);
    }

    [Fact]
    public async Task A_run_whose_source_window_cannot_be_trusted_still_verifies_and_says_why_it_has_no_source_figures()
    {
        var log = new ConcurrentQueue<string>();
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source, log: log);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        // Another client begins a run of its own and never ends it: the source's window for it stays open.
        var stranger = Guid.NewGuid();
        using var begun = await source.CreateClient().PostAsync(SourceRoutes.Run(stranger), null);
        using var _ = await SendOfRunAsync(source.CreateClient(), "users/keyset?limit=1", stranger);

        var run = await InProcessLab.SyncAsync(someService.CreateClient(), "NpgsqlCopy", "NpgsqlCopy");

        Assert.True(run.Verified, run.Error);
        Assert.NotNull(run.SomeService);
        Assert.Null(run.SyncDataSource);
        Assert.Contains(log, l => l.Contains("SyncDataSource sent no figures for run", StringComparison.Ordinal) && l.Contains(stranger.ToString(), StringComparison.Ordinal));
    }

    private static async Task<HttpResponseMessage> SendOfRunAsync(HttpClient client, string uri, Guid run)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, uri);
        request.Headers.Add(SourceRoutes.RunHeader, run.ToString());
        return await client.SendAsync(request);
    }

    private static async Task<TableChecksum> ReadChecksumOfRunAsync(HttpClient client, Guid run)
    {
        using var answer = await SendOfRunAsync(client, SourceRoutes.Checksum, run);
        return (await answer.EnsureSuccessStatusCode().Content.ReadFromJsonAsync(SyncJsonContext.Default.TableChecksum))!;
    }

    private static async Task<SourceRunEnd> EndAsync(HttpClient client, Guid run)
    {
        using var answer = await client.DeleteAsync(SourceRoutes.Run(run));
        return (await answer.EnsureSuccessStatusCode().Content.ReadFromJsonAsync(SyncJsonContext.Default.SourceRunEnd))!;
    }
}
