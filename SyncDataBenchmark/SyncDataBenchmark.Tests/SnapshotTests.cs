using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using Npgsql;
using SomeService;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A small source that another client writes to during runs, and a short snapshot idle timeout: short for the test of
/// its expiry, long enough that a run's own pauses (a writer that buffers every row before its first write, JIT on a
/// machine busy with builds: over 3 s seen) never reach it.
/// </summary>
public sealed class SnapshotLab : LabFixture
{
    public const long Rows = 20_000;
    public static readonly TimeSpan IdleTimeout = TimeSpan.FromSeconds(10);
    protected override long SeedRows => Rows;

    protected override IReadOnlyDictionary<string, string> SourceSettings => new Dictionary<string, string>
    {
        ["Snapshots__IdleTimeout"] = IdleTimeout.ToString(),
    };

    /// <summary>SomeService tells the source its run is at work well inside the short idle timeout.</summary>
    protected override IReadOnlyDictionary<string, string> SomeServiceSettings => new Dictionary<string, string>
    {
        ["Sync__SourceKeepAlive"] = TimeSpan.FromSeconds(2).ToString(),
    };
}

[CollectionDefinition(Name)]
public sealed class SnapshotCollection : ICollectionFixture<SnapshotLab>
{
    public const string Name = "snapshot";
}

/// <summary>
/// One snapshot per run (docs/guarantees.md): every request of a run reads the state of the source its begin saw, so a
/// run verifies while another client writes, and the target equals the source at one instant; the snapshot's
/// transaction is gone after a run's end, after a refused request and after a run whose consumer went away.
/// </summary>
[Collection(SnapshotCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class SnapshotTests(SnapshotLab lab)
{
    [Theory]
    [MemberData(nameof(Consumers.FetchNames), MemberType = typeof(Consumers))]
    public async Task A_run_verifies_and_copies_one_instant_while_another_client_writes(string fetch)
    {
        var insert = ApproachRegistry.Catalog.RunnableCombinations.First(c => c.Fetch.Name == fetch).Insert.Name;
        var activeBefore = await ActiveRowsAsync(lab.SourceDb);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));

        using var stop = new CancellationTokenSource();
        var committed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var writer = SteadyWriter.RunAsync(lab.SourceDb, committed, stop.Token);
        // The writer is under way (it has committed) before the run's first request.
        if (await Task.WhenAny(committed.Task, writer) == writer)
        {
            Assert.Fail($"the writer stopped before its first commit ({(await writer).Transactions} transactions)");
        }

        // Small pages: hundreds of requests, each of which would see a different table without the snapshot.
        var run = await lab.SyncAsync(fetch, insert, pageSize: 50, batchSize: 500);
        await stop.CancelAsync();
        var written = await writer;

        Assert.True(run.Verified, $"{fetch} × {insert}: {run.Error}");
        Assert.True(written.Transactions > 0, "the writer wrote nothing");
        Assert.NotNull(run.SourceSnapshot);
        Assert.Matches("^[0-9A-F]+-[0-9A-F]+-[0-9]+$", run.SourceSnapshot.Id);
        // One instant: the writer keeps the number of active rows constant in every transaction (a flag moves between
        // two rows in one), so a target assembled from several states of the source would show another number.
        Assert.Equal(activeBefore, await ActiveRowsAsync(lab.TargetDb));
        Assert.Equal(run.Source, await Lab.ReadChecksumAsync(lab.TargetDb));
        Assert.NotEqual(run.Source, await Lab.ReadChecksumAsync(lab.SourceDb)); // the source did move on
        Assert.Equal(0, await OpenSnapshotTransactionsAsync());
    }

    /// <summary>
    /// A run that makes no request of the source for twice the idle timeout (its target locked, so its first write
    /// waits) keeps its snapshot: SomeService tells the source the run is at work (POST runs/{id}/alive), and the run
    /// verifies once the lock goes.
    /// </summary>
    [Fact]
    public async Task A_run_that_pauses_longer_than_the_idle_timeout_keeps_its_snapshot_while_SomeService_works()
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        RunResult started;
        await using (var blocker = new NpgsqlConnection(lab.TargetDb + ";Pooling=false"))
        {
            await blocker.OpenAsync();
            await using var hold = await blocker.BeginTransactionAsync();
            await using (var lockTable = new NpgsqlCommand("lock table users in access exclusive mode", blocker, hold))
            {
                await lockTable.ExecuteNonQueryAsync();
            }

            started = await lab.StartSyncAsync("NpgsqlCopy", "NpgsqlCopy");
            await Task.Delay(SnapshotLab.IdleTimeout * 2);
            await hold.RollbackAsync();
        }

        var run = await lab.WaitFinishedAsync(started.Id, TimeSpan.FromMinutes(2));
        Assert.True(run.Verified, $"{run.Status}: {run.Error}");
        Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb), await Lab.ReadChecksumAsync(lab.TargetDb));
    }

    [Fact]
    public async Task A_forgotten_run_ends_after_the_idle_timeout_and_its_late_requests_are_refused()
    {
        var run = await BeginAsync();
        var route = OneRequestRoute;
        using (var first = await SendOfRunAsync(route, run))
        {
            Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        }

        Assert.Equal(1, await OpenSnapshotTransactionsAsync());
        // Nothing more from this run: its consumer went away. The sweep ends the snapshot within a quarter of the timeout
        // after it; the bound only catches a snapshot that is never ended, and leaves a busy machine a minute of slack.
        var clock = Stopwatch.StartNew();
        while (await OpenSnapshotTransactionsAsync() > 0)
        {
            Assert.True(clock.Elapsed < SnapshotLab.IdleTimeout + TimeSpan.FromSeconds(60), $"the snapshot's transaction is still open after {clock.Elapsed}");
            await Task.Delay(200);
        }

        using var late = await SendOfRunAsync(route, run);
        Assert.Equal(HttpStatusCode.Conflict, late.StatusCode);
        Assert.Contains("snapshot of the source has ended", await late.Content.ReadAsStringAsync());
        // …and its measurement window with it: the next run starts clean.
        var ended = await EndAsync(run);
        Assert.Null(ended.Figures);
        Assert.Contains("no request of the run for", ended.FiguresMissing);
    }

    [Fact]
    public async Task A_refused_request_ends_its_runs_snapshot_at_once()
    {
        var run = await BeginAsync();
        using (var first = await SendOfRunAsync(OneRequestRoute, run))
        {
            Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        }

        Assert.Equal(1, await OpenSnapshotTransactionsAsync());
        var paging = ApproachRegistry.Catalog[ApproachRegistry.Catalog.Fetches.First(f => ApproachRegistry.Catalog[f].Pages)].Route!;
        using (var refused = await SendOfRunAsync($"{paging}?limit=many", run))
        {
            Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        }

        // Not after the idle timeout: failing runs one after another would otherwise hold a connection each meanwhile.
        Assert.Equal(0, await OpenSnapshotTransactionsAsync());
        using var late = await SendOfRunAsync(OneRequestRoute, run);
        Assert.Equal(HttpStatusCode.Conflict, late.StatusCode);
        Assert.Contains("answered 400", await late.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task A_run_begins_once_its_end_ends_its_snapshot_and_a_request_of_a_run_never_begun_is_refused()
    {
        var run = await BeginAsync();
        using var again = await lab.SourceClient.PostAsync(SourceRoutes.Run(run), null);
        Assert.Equal(HttpStatusCode.Conflict, again.StatusCode);
        Assert.Equal(1, await OpenSnapshotTransactionsAsync());

        var ended = await EndAsync(run);
        Assert.NotNull(ended.Snapshot);
        Assert.Equal(0, await OpenSnapshotTransactionsAsync());

        using var stranger = await SendOfRunAsync(OneRequestRoute, Guid.NewGuid());
        Assert.Equal(HttpStatusCode.Conflict, stranger.StatusCode);
        Assert.Contains("was never begun", await stranger.Content.ReadAsStringAsync());
        Assert.Equal(0, await OpenSnapshotTransactionsAsync());
    }

    [Fact]
    public async Task Requests_without_a_run_open_no_snapshot()
    {
        using var response = await lab.SourceClient.GetAsync(OneRequestRoute);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(0, await OpenSnapshotTransactionsAsync());
    }

    /// <summary>A fetch that needs no query parameters: one that does not page.</summary>
    private static string OneRequestRoute => ApproachRegistry.Catalog[ApproachRegistry.Catalog.Fetches.First(f => !ApproachRegistry.Catalog[f].Pages)].Route!;

    private async Task<Guid> BeginAsync()
    {
        var run = Guid.NewGuid();
        using var begun = await lab.SourceClient.PostAsync(SourceRoutes.Run(run), null);
        Assert.Equal(HttpStatusCode.OK, begun.StatusCode);
        return run;
    }

    private async Task<SourceRunEnd> EndAsync(Guid run)
    {
        using var answer = await lab.SourceClient.DeleteAsync(SourceRoutes.Run(run));
        return (await answer.EnsureSuccessStatusCode().Content.ReadFromJsonAsync(SyncJsonContext.Default.SourceRunEnd))!;
    }

    private async Task<HttpResponseMessage> SendOfRunAsync(string route, Guid run)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, route);
        request.Headers.Add(SourceRoutes.RunHeader, run.ToString());
        return await lab.SourceClient.SendAsync(request);
    }

    /// <summary>Backends of the source database sitting in a transaction between statements: a held snapshot looks like that.</summary>
    private async Task<long> OpenSnapshotTransactionsAsync()
    {
        await using var connection = new NpgsqlConnection(lab.SourceDb);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(
            "select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'", connection);
        return (long)(await command.ExecuteScalarAsync())!;
    }

    private static async Task<long> ActiveRowsAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("select count(*) from users where is_active", connection);
        return (long)(await command.ExecuteScalarAsync())!;
    }
}

/// <summary>
/// Another client of the source: at a steady modest rate, one transaction at a time, it inserts an inactive row,
/// moves the active flag from one row to another (both rows in one statement, one transaction) and deletes an inactive
/// row. The number of active rows never changes in any committed state. Bounded: it stops when cancelled, after
/// 60 s or after 3,000 transactions, whichever comes first. <c>committed</c> is completed by its first commit.
/// </summary>
internal static class SteadyWriter
{
    public sealed record Written(int Transactions);

    private static readonly string[] Steps =
    [
        "insert into users (id, name, patronymic, surname, created_at, is_active) values (gen_random_uuid(), 'writer', 'w', 'w', now()::timestamp, false)",
        """
        update users set is_active = not is_active
        where id in ((select id from users where is_active order by random() limit 1), (select id from users where not is_active order by random() limit 1))
        """,
        "delete from users where id = (select id from users where not is_active order by random() limit 1)",
    ];

    public static async Task<Written> RunAsync(string connectionString, TaskCompletionSource committed, CancellationToken stop)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(CancellationToken.None);
        var clock = Stopwatch.StartNew();
        var done = 0;
        while (!stop.IsCancellationRequested && clock.Elapsed < TimeSpan.FromSeconds(60) && done < 3_000)
        {
            await using var command = new NpgsqlCommand(Steps[done % Steps.Length], connection);
            await command.ExecuteNonQueryAsync(CancellationToken.None);
            done++;
            committed.TrySetResult();
            try
            {
                await Task.Delay(10, stop);
            }
            catch (OperationCanceledException)
            {
                break;
            }
        }

        return new Written(done);
    }
}
