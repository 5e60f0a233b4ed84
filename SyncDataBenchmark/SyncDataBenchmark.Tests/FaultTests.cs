using SomeService;
using System.Diagnostics;
using System.Net;
using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Interrupted transfers: every one is recorded failed/cancelled/interrupted with an error naming the cause, the
/// target keeps exactly its previous contents — a sentinel row that differs from the source, planted before each
/// test, so a rollback that does not happen (or a commit that should not) fails the test — and the services are
/// healthy afterwards.
/// </summary>
[Collection(FaultCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class FaultTests(FaultLab lab) : IAsyncLifetime
{
    /// <summary>The target as it was before the fault: differs from the source.</summary>
    private TableChecksum _before = null!;

    public static TheoryData<string> Fetches() => new(Consumers.Fetches);

    public static TheoryData<string> Inserts() => new(ApproachRegistry.Catalog.Inserts.Select(i => i.Name));

    /// <summary>
    /// Every fetch (into EFTypical), and every raw relay (NpgsqlCopyRaw, NpgsqlCopyRawTuned), whose COPY stream would
    /// commit a partial COPY on Dispose; the tuned one has dropped the primary key by then.
    /// </summary>
    public static TheoryData<string, string> KilledSourceCases()
    {
        var cases = new TheoryData<string, string>();
        foreach (var fetch in Consumers.Fetches)
        {
            cases.Add(fetch, "EFTypical");
        }

        foreach (var relay in ApproachRegistry.Catalog.Inserts.Where(i => ApproachRegistry.Catalog[i].CopyBytes))
        {
            cases.Add("NpgsqlCopy", relay.Name);
        }

        return cases;
    }

    public async Task InitializeAsync()
    {
        lab.Proxy.Reset();
        await lab.CancelLeftoverRunsAsync();
        _before = await lab.MakeTargetDifferAsync();
    }

    /// <summary>Fault injection never outlives its test, whatever happened in it.</summary>
    public async Task DisposeAsync()
    {
        lab.Proxy.Reset();
        if (!lab.Source.HasExited)
        {
            await FaultLab.SignalAsync(lab.Source, "CONT");
        }
    }

    /// <summary>The rows as before, and the primary key the tuned writers drop mid-run.</summary>
    private async Task AssertTargetUntouchedAsync()
    {
        Assert.Equal(_before, await Lab.ReadChecksumAsync(lab.TargetDb));
        Assert.Equal(PrimaryKeys.Expected, await PrimaryKeys.OfUsersAsync(lab.TargetDb));
    }

    [Theory]
    [MemberData(nameof(KilledSourceCases))]
    public async Task Source_process_killed_mid_stream_fails_the_run_and_leaves_the_target_intact(string fetch, string insert)
    {
        try
        {
            var run = await lab.StartAndWaitMidStreamAsync($"{fetch}", $"{insert}");
            await lab.Source.KillAsync();
            lab.Proxy.Reset();

            var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
            Assert.Equal(RunStatus.Failed, finished.Status);
            Assert.False(finished.Verified);
            Assert.Contains("SyncDataSource", finished.Error);
            await AssertTargetUntouchedAsync();
        }
        finally
        {
            await lab.StartSourceAsync();
        }

        await lab.AssertHealthyAndSyncingAsync();
    }

    [Theory]
    [MemberData(nameof(Consumers.StreamingFetchNames), MemberType = typeof(Consumers))]
    public async Task Source_database_backend_terminated_mid_stream_fails_the_run(string fetch)
    {
        // Held, the source's query is seen blocked on its full socket before its backend is terminated: rows are
        // certainly unsent, whatever the fetch reads ahead (a query merely running may have sent everything already).
        var run = await lab.StartAndWaitMidStreamAsync($"{fetch}", "NpgsqlCopy");
        await lab.WaitForBackendBlockedSendingAsync(Lab.SourceDatabase, FaultLab.SourceStreaming, TimeSpan.FromSeconds(30));
        Assert.True(await lab.TerminateBackendsAsync(Lab.SourceDatabase, FaultLab.SourceStreaming) >= 1, "no streaming source backend to terminate:\n" + await lab.DescribeActivityAsync());
        lab.Proxy.Reset();

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Contains("SyncDataSource", finished.Error);
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Theory]
    [MemberData(nameof(Inserts))]
    public async Task Target_backend_terminated_mid_write_fails_the_run_and_rolls_back(string insert)
    {
        var run = await lab.StartAndWaitMidStreamAsync("NpgsqlCopy", $"{insert}");
        Assert.True(await lab.TerminateTargetWriterAsync() == 1, "the target backend seen writing is no longer in a transaction:\n" + await lab.DescribeActivityAsync());
        lab.Proxy.Reset();

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.True(finished.Error?.StartsWith("Writing to SomeService's database failed", StringComparison.Ordinal) == true, $"{finished.Error}\n{lab.SomeService.RecentOutput}");
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Theory]
    [InlineData("NpgsqlCopy")]
    [InlineData("NpgsqlCopyRaw")]
    public async Task A_source_changed_during_the_run_verifies_against_the_snapshot_the_run_read(string insert)
    {
        var extra = Guid.CreateVersion7();
        try
        {
            // Mid-stream, the target is receiving rows, so the run's snapshot was taken: committed now, this row is in
            // neither the stream nor the run's checksum of the source (read in the same snapshot), so the run verifies
            // and the target holds the source as it was when the run began. (Before runs read one snapshot, the checksum
            // counted it and the run failed verification.)
            var run = await lab.StartAndWaitMidStreamAsync("NpgsqlCopy", $"{insert}");
            await ExecuteOnSourceAsync("insert into users values ($1, 'Late', 'L', 'Arrival', now()::timestamp, true)", extra);
            lab.Proxy.Reset();

            var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(120));
            Assert.True(finished.Verified, finished.Error);
            Assert.Equal(FaultLab.Rows, finished.Rows);
            Assert.Equal(FaultLab.Rows, (await Lab.ReadChecksumAsync(lab.TargetDb)).Rows);
            Assert.NotNull(finished.SourceSnapshot);
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
        var run = await lab.StartAndWaitMidStreamAsync("EFKeysetPaging", "EFTypical");

        await lab.SomeService.KillAsync();
        lab.Proxy.Reset();
        await lab.StartSomeServiceAsync();

        var stored = await lab.GetRunAsync(run.Id);
        Assert.Equal(RunStatus.Interrupted, stored.Status);
        Assert.Contains("stopped while this run was in progress", stored.Error);
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task Cancelling_through_the_api_rolls_back_and_records_cancelled()
    {
        var run = await lab.StartAndWaitMidStreamAsync("EFStream", "EFTypical");

        using (var cancel = await lab.Api.CancelAsync(run.Id))
        {
            Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        }

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(30));
        Assert.Equal(RunStatus.Cancelled, finished.Status);
        Assert.Contains("Cancelled on request", finished.Error);
        await AssertTargetUntouchedAsync();

        using (var again = await lab.Api.CancelAsync(run.Id))
        {
            Assert.Equal(HttpStatusCode.Conflict, again.StatusCode);
        }

        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task Sigterm_during_a_run_records_it_cancelled_before_exiting()
    {
        var run = await lab.StartAndWaitMidStreamAsync("NpgsqlCopy", "EFTypical");

        await lab.SomeService.TerminateAsync(TimeSpan.FromSeconds(30));
        lab.Proxy.Reset();
        await lab.StartSomeServiceAsync();

        var stored = await lab.GetRunAsync(run.Id);
        Assert.Equal(RunStatus.Cancelled, stored.Status);
        Assert.Contains("shutting down", stored.Error);
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task A_slow_source_that_keeps_sending_is_not_cut_by_any_timeout()
    {
        // Each pause well inside the idle timeout; the whole run several times longer than it.
        lab.Proxy.BurstBytes = 3 * 1024 * 1024;
        lab.Proxy.PauseBetweenBursts = FaultLab.IdleTimeout * 0.4;

        var run = await lab.SyncAsync("NpgsqlCopy", "NpgsqlCopy");

        Assert.True(run.Verified, run.Error);
        Assert.True(run.DurationMs > 2 * FaultLab.IdleTimeout.TotalMilliseconds, $"the run was not slow: {run.DurationMs} ms");
    }

    [Theory]
    [MemberData(nameof(Fetches))]
    public async Task A_stalled_source_fails_clearly_after_the_idle_timeout(string fetch)
    {
        lab.Proxy.StallAfterBytes = 300_000;

        // Waited for with a bound of its own: without an idle timeout the run would hang, and so would a wait=true.
        var started = await lab.StartSyncAsync($"{fetch}", "NpgsqlCopy");
        var run = await lab.WaitFinishedAsync(started.Id, FaultLab.IdleTimeout + TimeSpan.FromSeconds(30));

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains($" {FaultLab.IdleTimeout.TotalSeconds:0} s", run.Error);
        Assert.Contains("(idle timeout)", run.Error);
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    /// <summary>
    /// A source frozen mid-run (SIGSTOP: the process is there, its sockets are open, nothing moves) fails the run
    /// within the idle timeout plus a few seconds, and the trigger waiting for the run gets its answer then: nothing
    /// asks the frozen source for anything more.
    /// </summary>
    [Fact]
    public async Task A_frozen_source_fails_the_run_within_the_idle_timeout_and_the_waiting_trigger_is_answered()
    {
        var (answer, runId) = await lab.StartWaitingAndMidStreamAsync("NpgsqlCopy", "NpgsqlCopy");
        await FaultLab.SignalAsync(lab.Source, "STOP");
        var frozen = Stopwatch.StartNew();
        lab.Proxy.Reset(); // what the source sent before it froze arrives at once; then silence

        using var response = await answer.WaitAsync(FaultLab.IdleTimeout + TimeSpan.FromSeconds(30));
        var answeredAfter = frozen.Elapsed;
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{(int)response.StatusCode}: {body}");
        var run = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
        Assert.Equal(runId, run.Id);
        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("(idle timeout)", run.Error);
        // One idle timeout, not two: ending the run at the frozen source must not add its own patience on top (the
        // failed run is answered before it ends there). Not "plus a little": that margin is the machine's load.
        Assert.True(answeredAfter < FaultLab.IdleTimeout * 2, $"answered {answeredAfter.TotalSeconds:0.0} s after the source froze");
        Assert.Equal(RunStatus.Failed, (await lab.GetRunAsync(runId)).Status);
        await AssertTargetUntouchedAsync();

        await FaultLab.SignalAsync(lab.Source, "CONT");
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Fact]
    public async Task PostgreSQL_down_gives_503_and_the_services_recover_when_it_is_back()
    {
        await lab.Postgres.StopAsync(immediate: true);
        try
        {
            using var response = await lab.Api.TriggerAsync("NpgsqlCopy", "NpgsqlCopy");
            Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
            Assert.Contains("database is unreachable", await response.Content.ReadAsStringAsync());

            using var ready = await lab.Client.GetAsync("health/ready");
            Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
        }
        finally
        {
            await lab.Postgres.RestartAsync();
        }

        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    /// <summary>
    /// PostgreSQL (both databases) goes away mid-run for a while and comes back: the run ends recorded (never left
    /// "running"), the trigger waiting for it gets the run or a 503 ProblemDetails, never a 500; while it is down,
    /// every endpoint that needs a database answers 503 ProblemDetails; afterwards a sync works with nothing restarted.
    /// One outage, longer than each of Npgsql's defaults a pool or a request could wait on (Timeout 15 s, Command
    /// Timeout 30 s): probed early, and again once both have run out.
    /// </summary>
    [Fact]
    public async Task A_PostgreSQL_outage_during_a_run_ends_it_recorded_and_nothing_answers_500()
    {
        const int outageSeconds = 36;
        var (answer, runId) = await lab.StartWaitingAndMidStreamAsync("EFStream", "EFTypical");
        await lab.Postgres.StopAsync(immediate: true);
        var down = Stopwatch.StartNew();
        lab.Proxy.Reset();
        try
        {
            var probes = new (HttpClient Client, string Path)[]
            {
                (lab.Client, SyncRoutes.Runs), (lab.Client, SyncRoutes.Run(runId)), (lab.SourceClient, SourceRoutes.Checksum),
            };
            // Probed early in the outage and again near its end (pools, retries and timeouts have had time to act).
            foreach (var at in new[] { TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(outageSeconds - 3) })
            {
                if (at > down.Elapsed)
                {
                    await Task.Delay(at - down.Elapsed);
                }

                foreach (var (client, path) in probes)
                {
                    using var response = await client.GetAsync(path);
                    await AssertProblemAsync(response, HttpStatusCode.ServiceUnavailable, $"GET /{path} {down.Elapsed.TotalSeconds:0} s into the outage");
                }

                // Every fetch, as SomeService's own consumer asks for it: the source says 503 (gRPC: Unavailable), not 500.
                foreach (var fetch in Consumers.Fetches)
                {
                    await using var rows = Consumers.Read(fetch, lab.SourceClient, pageSize: 10).GetAsyncEnumerator();
                    var refused = await Assert.ThrowsAsync<SomeService.Fetch.SourceStreamException>(async () => await rows.MoveNextAsync());
                    Assert.Matches("with (503 Service Unavailable|Unavailable after 0 rows): This service's database is unreachable", refused.Message);
                }

                if (answer.IsCompleted)
                {
                    await AssertRunOr503Async(await answer, runId);
                }
            }

            var left = TimeSpan.FromSeconds(outageSeconds) - down.Elapsed;
            if (left > TimeSpan.Zero)
            {
                await Task.Delay(left);
            }
        }
        finally
        {
            await lab.Postgres.RestartAsync();
        }

        using (var answered = await answer.WaitAsync(TimeSpan.FromSeconds(60)))
        {
            await AssertRunOr503Async(answered, runId);
        }

        // Recorded once the database is back, without restarting anything.
        var recorded = await lab.WaitFinishedAsync(runId, TimeSpan.FromSeconds(30));
        Assert.Contains(recorded.Status, new[] { RunStatus.Failed, RunStatus.Cancelled });
        Assert.False(string.IsNullOrEmpty(recorded.Error));
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    private static async Task AssertRunOr503Async(HttpResponseMessage response, Guid runId)
    {
        if (response.StatusCode == HttpStatusCode.OK)
        {
            var run = JsonSerializer.Deserialize(await response.Content.ReadAsStringAsync(), SyncJsonContext.Default.RunResult)!;
            Assert.Equal(runId, run.Id);
            Assert.NotEqual(RunStatus.Running, run.Status);
            Assert.NotEqual(RunStatus.Succeeded, run.Status);
            return;
        }

        await AssertProblemAsync(response, HttpStatusCode.ServiceUnavailable, "the waiting trigger");
    }

    private static async Task AssertProblemAsync(HttpResponseMessage response, HttpStatusCode status, string what)
    {
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == status, $"{what}: {(int)response.StatusCode} {body[..Math.Min(body.Length, 500)]}");
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        using var problem = JsonDocument.Parse(body);
        Assert.Equal((int)status, problem.RootElement.GetProperty("status").GetInt32());
    }
}
