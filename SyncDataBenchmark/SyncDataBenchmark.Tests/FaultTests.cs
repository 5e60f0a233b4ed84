using System.Net;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Interrupted transfers: every one is recorded failed/cancelled/interrupted with an error naming the cause, the
/// target keeps exactly its previous contents, and the services are healthy afterwards.
/// </summary>
[Collection(FaultCollection.Name)]
public sealed class FaultTests(FaultLab lab)
{
    public static TheoryData<FetchApproach> Fetches() => new(Approaches.Fetches);

    public static TheoryData<InsertApproach> Inserts() => new(Approaches.AvailableInserts);

    [Theory]
    [MemberData(nameof(Fetches))]
    public async Task Source_process_killed_mid_stream_fails_the_run_and_leaves_the_target_intact(FetchApproach fetch)
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        try
        {
            var run = await lab.StartAndWaitMidStreamAsync($"f={fetch}&i=EFTypical");
            await lab.Source.KillAsync();

            var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
            Assert.Equal(RunStatus.Failed, finished.Status);
            Assert.False(finished.Verified);
            Assert.Contains("SyncDataSource", finished.Error);
            Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        }
        finally
        {
            await lab.Source.DisposeAsync();
            await lab.StartSourceAsync();
        }

        await lab.AssertHealthyAndSyncingAsync();
    }

    [Theory]
    [InlineData(FetchApproach.EFStream)]
    [InlineData(FetchApproach.NpgsqlCopy)]
    public async Task Source_database_backend_terminated_mid_stream_fails_the_run(FetchApproach fetch)
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        // Slow the relay so the source's query is still running when its backend is terminated.
        lab.Proxy.BurstBytes = 1024 * 1024;
        lab.Proxy.PauseBetweenBursts = TimeSpan.FromMilliseconds(500);
        var run = await lab.StartAndWaitMidStreamAsync($"f={fetch}&i=NpgsqlCopy");

        await lab.WaitForBackendAsync(Lab.SourceDatabase, FaultLab.SourceStreaming, TimeSpan.FromSeconds(30));
        Assert.True(await lab.TerminateBackendsAsync(Lab.SourceDatabase, FaultLab.SourceStreaming) >= 1, "no streaming source backend to terminate:\n" + await lab.DescribeActivityAsync());

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Contains("SyncDataSource", finished.Error);
        Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Theory]
    [MemberData(nameof(Inserts))]
    public async Task Target_backend_terminated_mid_write_fails_the_run_and_rolls_back(InsertApproach insert)
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        lab.Proxy.BurstBytes = 1024 * 1024;
        lab.Proxy.PauseBetweenBursts = TimeSpan.FromMilliseconds(500);
        var run = await lab.StartAndWaitMidStreamAsync($"f=NpgsqlCopy&i={insert}");

        Assert.True(await lab.TerminateBackendsAsync(Lab.TargetDatabase, FaultLab.TargetWriting) >= 1, "no writing target backend to terminate:\n" + await lab.DescribeActivityAsync());

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Contains("Writing to SomeService's database failed", finished.Error);
        Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task A_source_changed_during_the_run_fails_verification_and_rolls_back()
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        var extra = Guid.CreateVersion7();
        lab.Proxy.BurstBytes = 1024 * 1024;
        lab.Proxy.PauseBetweenBursts = TimeSpan.FromMilliseconds(500);
        try
        {
            var run = await lab.StartAndWaitMidStreamAsync("f=NpgsqlCopy&i=NpgsqlCopy");
            await lab.WaitForBackendAsync(Lab.SourceDatabase, FaultLab.SourceStreaming, TimeSpan.FromSeconds(30));
            // Committed after COPY took its snapshot: the stream cannot hold this row, the source's summary will.
            await ExecuteOnSourceAsync("insert into users values ($1, 'Late', 'L', 'Arrival', now()::timestamp, true)", extra);

            var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
            Assert.Equal(RunStatus.Failed, finished.Status);
            Assert.False(finished.Verified);
            Assert.Contains("Verification failed, rolled back", finished.Error);
            Assert.Contains($"source has {FaultLab.Rows + 1:N0} rows", finished.Error);
            Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        }
        finally
        {
            await ExecuteOnSourceAsync("delete from users where id = $1", extra);
        }

        await lab.AssertHealthyAndSyncingAsync();
    }

    private Task ExecuteOnSourceAsync(string sql, Guid id) => lab.ScalarAsync(Lab.SourceDatabase, sql, id);

    [Fact]
    public async Task SomeService_killed_mid_run_marks_the_run_interrupted_after_restart()
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        var run = await lab.StartAndWaitMidStreamAsync("f=EFKeysetPaging&i=EFTypical");

        await lab.SomeService.KillAsync();
        await lab.SomeService.DisposeAsync();
        await lab.StartSomeServiceAsync();

        var stored = await lab.GetRunAsync(run.Id);
        Assert.Equal(RunStatus.Interrupted, stored.Status);
        Assert.Contains("stopped while this run was in progress", stored.Error);
        Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task Cancelling_through_the_api_rolls_back_and_records_cancelled()
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        var run = await lab.StartAndWaitMidStreamAsync("f=EFStream&i=EFTypical");

        using (var cancel = await lab.Client.DeleteAsync($"sync/runs/{run.Id}"))
        {
            Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        }

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(30));
        Assert.Equal(RunStatus.Cancelled, finished.Status);
        Assert.Contains("Cancelled on request", finished.Error);
        Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));

        using (var again = await lab.Client.DeleteAsync($"sync/runs/{run.Id}"))
        {
            Assert.Equal(HttpStatusCode.Conflict, again.StatusCode);
        }

        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task Sigterm_during_a_run_records_it_cancelled_before_exiting()
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        var run = await lab.StartAndWaitMidStreamAsync("f=NpgsqlCopy&i=EFTypical");

        await lab.SomeService.TerminateAsync(TimeSpan.FromSeconds(30));
        await lab.SomeService.DisposeAsync();
        await lab.StartSomeServiceAsync();

        var stored = await lab.GetRunAsync(run.Id);
        Assert.Equal(RunStatus.Cancelled, stored.Status);
        Assert.Contains("shutting down", stored.Error);
        Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task A_slow_source_that_keeps_sending_is_not_cut_by_any_timeout()
    {
        // Pauses shorter than the idle timeout, a whole run several times longer than it.
        lab.Proxy.BurstBytes = 4 * 1024 * 1024;
        lab.Proxy.PauseBetweenBursts = FaultLab.IdleTimeout * 0.7;
        try
        {
            var run = await lab.SyncAsync("f=NpgsqlCopy&i=NpgsqlCopy");

            Assert.True(run.Verified, run.Error);
            Assert.True(run.DurationMs > 2 * FaultLab.IdleTimeout.TotalMilliseconds, $"the run was not slow: {run.DurationMs} ms");
        }
        finally
        {
            lab.Proxy.Reset();
        }
    }

    [Theory]
    [MemberData(nameof(Fetches))]
    public async Task A_stalled_source_fails_clearly_after_the_idle_timeout(FetchApproach fetch)
    {
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        lab.Proxy.StallAfterBytes = 300_000;
        try
        {
            var run = await lab.SyncAsync($"f={fetch}&i=NpgsqlCopy");

            Assert.Equal(RunStatus.Failed, run.Status);
            Assert.Contains(" 3 s", run.Error);
            Assert.Contains("(idle timeout)", run.Error);
            Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        }
        finally
        {
            lab.Proxy.Reset();
        }

        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task PostgreSQL_down_gives_503_and_the_services_recover_when_it_is_back()
    {
        await lab.Postgres.StopAsync(immediate: true);
        try
        {
            using var response = await lab.Client.GetAsync("sync?f=NpgsqlCopy&i=NpgsqlCopy");
            Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
            Assert.Contains("database is unreachable", await response.Content.ReadAsStringAsync());

            using var ready = await lab.Client.GetAsync("health/ready");
            Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
        }
        finally
        {
            await lab.Postgres.RestartAsync();
        }

        await lab.AssertHealthyAndSyncingAsync();
    }
}
