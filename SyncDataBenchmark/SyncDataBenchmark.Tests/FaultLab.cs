using System.Net.Http.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A lab for breaking things: 300,000 source rows, SomeService reaching the source through a
/// <see cref="ThrottleProxy"/> (which holds a run mid-stream until the fault is in), and a short idle timeout so
/// stalls fail fast. Each test starts from a target that differs from the source (<see cref="MakeTargetDifferAsync"/>).
/// </summary>
public sealed class FaultLab : LabFixture
{
    public const long Rows = 300_000;

    /// <summary>Short, so a stall fails fast; every pause a test makes on purpose stays seconds away from it.</summary>
    public static readonly TimeSpan IdleTimeout = TimeSpan.FromSeconds(5);

    /// <summary>The target backend the last held run was seen writing with.</summary>
    private int? targetWriter;

    public ThrottleProxy Proxy { get; }

    public FaultLab() => Proxy = new ThrottleProxy(() => Source.BaseAddress);

    protected override long SeedRows => Rows;

    protected override Uri SourceAddressForSomeService => Proxy.BaseAddress;

    protected override IReadOnlyDictionary<string, string> SomeServiceSettings => new Dictionary<string, string>
    {
        ["Sync__SourceIdleTimeout"] = IdleTimeout.ToString(),
    };

    /// <summary>
    /// SyncDataSource's receive buffer from its PostgreSQL fixed small: left to autotuning (tcp_rmem up to 32 MiB on
    /// some kernels) it swallowed the whole 19 MB COPY of a held run, the source's query ended before a fault could
    /// reach it, and "the backend blocked sending" was never seen. Fixed, back-pressure reaches the backend.
    /// </summary>
    protected override IReadOnlyDictionary<string, string> SourceSettings => new Dictionary<string, string>
    {
        ["ConnectionStrings__Source"] = new Npgsql.NpgsqlConnectionStringBuilder(Databases.SourceServiceDb) { SocketReceiveBufferSize = 64 * 1024 }.ConnectionString,
    };

    /// <summary>
    /// Before each fault: the target emptied and given a sentinel row no source holds, so "left intact" differs from
    /// both "overwritten" and "emptied". Returns the target's summary, asserted different from the source's.
    /// </summary>
    public async Task<TableChecksum> MakeTargetDifferAsync()
    {
        var source = await Lab.ReadChecksumAsync(SourceDb);
        await Lab.MakeTargetDifferAsync(TargetDb, source);
        var target = await Lab.ReadChecksumAsync(TargetDb);
        Assert.NotEqual(source, target);
        Assert.Equal(1, target.Rows);
        return target;
    }

    /// <summary>SQL LIKE patterns of a run's data-moving statements, by database.</summary>
    /// <summary>
    /// COPY, EF's paging queries, and the source's guarded streaming queries (sendable-users.sql, arrow-users.sql), which
    /// begin with their files' comments, so matched anywhere in the statement.
    /// </summary>
    public static readonly string[] SourceStreaming = ["COPY users%", "SELECT%FROM users AS%", "%select id, name, patronymic, surname,%"];
    /// <summary>
    /// Ours and EF's statements name the table bare; EFCore.BulkExtensions quotes and qualifies it. Its upsert
    /// (EFBulkMerge) runs per chunk CREATE TABLE "usersTemp…", a COPY into it, INSERT … SELECT … FROM it and DROP TABLE,
    /// each brief, then waits for the next chunk idle in the run's transaction with that DROP as its last statement: every
    /// statement naming "usersTemp…" is matched, so the writer is seen writing from its first chunk on, whenever the test
    /// looks (matching the COPY alone caught it only in the moment the COPY ran). linq2db's Merge from the rows writes by
    /// MERGE (the COPY merges' staging tables are named users_…).
    /// </summary>
    public static readonly string[] TargetWriting = ["COPY users%", "COPY \"public\".\"users\"%", "%\"public\".\"usersTemp%", "INSERT INTO users%", "MERGE INTO users%", "%SAVEPOINT%"];

    /// <summary>Terminates the backends of a database whose current or last statement matches, as an operator or a failover would.</summary>
    public async Task<int> TerminateBackendsAsync(string database, string[] patterns) =>
        Convert.ToInt32(await ScalarAsync("postgres", BackendsSql("count(pg_terminate_backend(pid))"), database, patterns));

    /// <summary>
    /// Terminates the target backend the last run was seen writing with (<see cref="StartAndWaitMidStreamAsync"/>), as
    /// long as it is still in a transaction. By its process id, not its statement: a writer's last statement changes
    /// between batches (EFMerge reads a batch's rows by key before it writes them), and on a busy machine the statement
    /// seen writing was once replaced by the next batch's read when the test looked again.
    /// </summary>
    public async Task<int> TerminateTargetWriterAsync()
    {
        Assert.True(targetWriter is not null, "No run was seen writing: start it with StartAndWaitMidStreamAsync.");
        return Convert.ToInt32(await ScalarAsync("postgres", """
            select count(pg_terminate_backend(pid)) from pg_stat_activity
            where pid = $1 and datname = $2 and state in ('active', 'idle in transaction')
            """, targetWriter.Value, Lab.TargetDatabase));
    }

    /// <summary>Waits until a backend of the database is in a transaction running one of the statements.</summary>
    public Task WaitForBackendAsync(string database, string[] patterns, TimeSpan timeout) =>
        WaitForBackendsAsync(BackendsSql("count(*)"), "ran", database, patterns, timeout);

    /// <summary>
    /// Waits until a backend of the database runs one of the statements blocked sending its results (wait event
    /// ClientWrite: its socket is full, the proxy holding the stream to a trickle). Terminated then, rows it had not
    /// sent are lost for certain; a statement merely running may already have sent everything into the buffers between
    /// PostgreSQL and SyncDataSource (ArrowStream reads a batch ahead), and then a run succeeds, rightly.
    /// </summary>
    public Task WaitForBackendBlockedSendingAsync(string database, string[] patterns, TimeSpan timeout) =>
        WaitForBackendsAsync(BackendsSql("count(*)") + " and state = 'active' and wait_event = 'ClientWrite'", "was seen blocked sending", database, patterns, timeout);

    private async Task WaitForBackendsAsync(string countSql, string what, string database, string[] patterns, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (Convert.ToInt32(await ScalarAsync("postgres", countSql, database, patterns)) == 0)
        {
            Assert.True(DateTime.UtcNow < deadline, $"No {database} backend running {string.Join(" | ", patterns)} {what} within {timeout}:\n{await DescribeActivityAsync()}\n{SomeService.RecentOutput}");
            await Task.Delay(50);
        }
    }

    /// <summary>The process id of one backend of the database in a transaction running one of the statements, or null.</summary>
    private async Task<int?> FindBackendAsync(string database, string[] patterns) =>
        await ScalarAsync("postgres", BackendsSql("min(pid)"), database, patterns) is int pid ? pid : null;

    private static string BackendsSql(string select) => $"""
        select {select} from pg_stat_activity
        where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()
          and state in ('active', 'idle in transaction') and query ilike any($2)
        """;

    /// <summary>What each client backend is doing, for failure messages.</summary>
    public async Task<string> DescribeActivityAsync() =>
        (await ScalarAsync("postgres", """
            select string_agg(format('%s %s %s %s', datname, state, wait_event, left(query, 60)), E'\n')
            from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()
            """))?.ToString() ?? "";

    /// <summary>One statement in <paramref name="database"/> on its own unpooled connection (<see cref="Lab.ScalarAsync(string, string, IReadOnlyList{object}, CancellationToken)"/>).</summary>
    public Task<object?> ScalarAsync(string database, string sql, params object[] parameters) =>
        Lab.ScalarAsync(Postgres.ConnectionString(database), sql, parameters);

    /// <summary>
    /// Starts a run with the proxy holding the source to a trickle, and returns once it is mid-stream: the target is
    /// in the run's transaction writing rows. Held, the run cannot finish before the fault is injected, so there is
    /// nothing to retry; the test releases the hold (<see cref="ThrottleProxy.Holding"/>) once the fault is in.
    /// </summary>
    public async Task<RunResult> StartAndWaitMidStreamAsync(string fetch, string insert, string? compression = null)
    {
        Proxy.Holding = true;
        var run = await StartSyncAsync(fetch, insert, compression);
        await WaitMidStreamAsync(run.Id);
        return run;
    }

    /// <summary>
    /// The same with a trigger that waits for the run (wait=true), as a caller of the API would: returns the
    /// pending answer and the run, mid-stream.
    /// </summary>
    public async Task<(Task<HttpResponseMessage> Answer, Guid RunId)> StartWaitingAndMidStreamAsync(string fetch, string insert)
    {
        Proxy.Holding = true;
        var answer = Api.TriggerAsync(fetch, insert, wait: true);
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (true)
        {
            var runs = await Api.ListRunsAsync(1);
            if (runs is [{ Status: RunStatus.Running } running])
            {
                await WaitMidStreamAsync(running.Id);
                return (answer, running.Id);
            }

            Assert.False(answer.IsCompleted, $"The trigger answered before its run was seen running: {(answer.IsCompletedSuccessfully ? await answer.Result.Content.ReadAsStringAsync() : answer.Exception?.ToString())}");
            Assert.True(DateTime.UtcNow < deadline, $"No run was started within 30 s.\n{SomeService.RecentOutput}");
            await Task.Delay(50);
        }
    }

    private async Task WaitMidStreamAsync(Guid id)
    {
        targetWriter = null;
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while ((targetWriter = await FindBackendAsync(Lab.TargetDatabase, TargetWriting)) is null)
        {
            var now = await GetRunAsync(id);
            Assert.True(now.Status == RunStatus.Running, $"The run ended before the fault could be injected, although the source was held: {now.Status} {now.Error}\n{SomeService.RecentOutput}");
            Assert.True(DateTime.UtcNow < deadline, $"The run did not start writing within 60 s:\n{await DescribeActivityAsync()}\n{SomeService.RecentOutput}");
            await Task.Delay(50);
        }
    }

    /// <summary>Sends a signal (STOP, CONT, …) to a service process, as an operator or a frozen VM would.</summary>
    public static async Task SignalAsync(ServiceProcess service, string signal)
    {
        Assert.Equal(0, await ChildProcess.SignalAsync(service.ProcessId, signal));
    }

    /// <summary>A test that failed half-way must not leave its run blocking the next test with 409.</summary>
    public async Task CancelLeftoverRunsAsync()
    {
        foreach (var running in (await Api.ListRunsAsync(5)).Where(r => r.Status == RunStatus.Running))
        {
            using var _ = await Api.CancelAsync(running.Id);
            await WaitFinishedAsync(running.Id, TimeSpan.FromSeconds(30));
        }
    }

    /// <summary>Both services become ready by themselves within seconds and a fresh run succeeds: nothing was left broken.</summary>
    public async Task AssertHealthyAndSyncingAsync()
    {
        Proxy.Reset();
        foreach (var (name, client) in new[] { ("SomeService", Client), ("SyncDataSource", SourceClient) })
        {
            var deadline = DateTime.UtcNow.AddSeconds(15);
            while (true)
            {
                using var health = await client.GetAsync("health/ready");
                if (health.IsSuccessStatusCode)
                {
                    break;
                }

                Assert.True(DateTime.UtcNow < deadline, $"{name} not ready 15 s after the fault: {(int)health.StatusCode}");
                await Task.Delay(250);
            }
        }

        var run = await SyncAsync("NpgsqlCopy", "NpgsqlCopy");
        Assert.True(run.Verified, run.Error);
        Assert.Equal(Rows, run.Rows);
    }

    public override async Task DisposeAsync()
    {
        await Proxy.DisposeAsync();
        await base.DisposeAsync();
    }
}

[CollectionDefinition(Name)]
[LongRunning]
public sealed class FaultCollection : ICollectionFixture<FaultLab>
{
    public const string Name = "faults";
}
