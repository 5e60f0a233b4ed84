using System.Net.Http.Json;
using Npgsql;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A lab for breaking things: 300,000 source rows (enough for a run to be caught mid-stream), a target that starts
/// with 1,234 different rows, SomeService reaching the source through a <see cref="ThrottleProxy"/>, and a short
/// idle timeout so stalls fail fast.
/// </summary>
public sealed class FaultLab : LabFixture
{
    public const long Rows = 300_000;
    public static readonly TimeSpan IdleTimeout = TimeSpan.FromSeconds(3);

    public ThrottleProxy Proxy { get; }

    public FaultLab() => Proxy = new ThrottleProxy(() => Source.BaseAddress);

    protected override long SeedRows => Rows;

    protected override Uri SourceAddressForSomeService => Proxy.BaseAddress;

    protected override IReadOnlyDictionary<string, string> SomeServiceSettings => new Dictionary<string, string>
    {
        ["Sync__SourceIdleTimeout"] = IdleTimeout.ToString(),
    };

    protected override async Task PrepareDatabasesAsync()
    {
        // Previous contents that differ from the source, so "left intact" is distinguishable from "overwritten".
        await SqlScripts.ApplySchemaAsync(TargetDb, withGenerator: true);
        await SqlScripts.SeedAsync(TargetDb, 1_234);
    }

    /// <summary>SQL LIKE patterns of a run's data-moving statements, by database.</summary>
    public static readonly string[] SourceStreaming = ["COPY users%", "SELECT%FROM users AS%"];
    /// <summary>Ours and EF's statements name the table bare; EFCore.BulkExtensions quotes and qualifies it.</summary>
    public static readonly string[] TargetWriting = ["COPY users%", "COPY \"public\".\"users\"%", "INSERT INTO users%", "%SAVEPOINT%"];

    /// <summary>Terminates the backends of a database whose current or last statement matches, as an operator or a failover would.</summary>
    public async Task<int> TerminateBackendsAsync(string database, string[] patterns) =>
        Convert.ToInt32(await ScalarAsync("postgres", BackendsSql("count(pg_terminate_backend(pid))"), database, patterns));

    /// <summary>Waits until a backend of the database is in a transaction running one of the statements.</summary>
    public async Task WaitForBackendAsync(string database, string[] patterns, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (await CountBackendsAsync(database, patterns) == 0)
        {
            Assert.True(DateTime.UtcNow < deadline, $"No {database} backend ran {string.Join(" | ", patterns)} within {timeout}:\n{await DescribeActivityAsync()}\n{SomeService.RecentOutput}");
            await Task.Delay(50);
        }
    }

    private async Task<int> CountBackendsAsync(string database, string[] patterns) =>
        Convert.ToInt32(await ScalarAsync("postgres", BackendsSql("count(*)"), database, patterns));

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

    /// <summary>
    /// One statement on its own unpooled connection: checks made around faults and server restarts must not trip
    /// over a dead pooled connection.
    /// </summary>
    public async Task<object?> ScalarAsync(string database, string sql, params object[] parameters)
    {
        await using var connection = new NpgsqlConnection(Postgres.ConnectionString(database) + ";Pooling=false");
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var parameter in parameters)
        {
            command.Parameters.Add(new() { Value = parameter });
        }

        return await command.ExecuteScalarAsync();
    }

    /// <summary>
    /// Starts a run and returns once it is mid-stream: the target is in the run's transaction writing rows, so a
    /// fault now hits a transfer in progress, however loaded the machine is.
    /// </summary>
    public async Task<RunResult> StartAndWaitMidStreamAsync(string query)
    {
        for (var attempt = 1; ; attempt++)
        {
            await CancelLeftoverRunsAsync();
            var run = await StartSyncAsync(query);
            var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
            while (true)
            {
                var now = await GetRunAsync(run.Id);
                if (now.Status != RunStatus.Running)
                {
                    // The precondition (a run mid-stream) was not reached, e.g. the previous test's restart left
                    // something transient behind: try once more, then report why.
                    Assert.True(attempt < 2, $"The run ended before the fault could be injected: {now.Status} {now.Error}\n{SomeService.RecentOutput}");
                    break;
                }

                if (await CountBackendsAsync(Lab.TargetDatabase, TargetWriting) > 0)
                {
                    return run;
                }

                Assert.True(DateTime.UtcNow < deadline, $"The run did not start writing within 60 s:\n{await DescribeActivityAsync()}\n{SomeService.RecentOutput}");
                await Task.Delay(50);
            }
        }
    }

    /// <summary>A test that failed half-way must not leave its run blocking the next test with 409.</summary>
    public async Task CancelLeftoverRunsAsync()
    {
        var runs = await Client.GetFromJsonAsync("sync/runs?limit=5", SyncJsonContext.Default.ListRunResult) ?? [];
        foreach (var running in runs.Where(r => r.Status == RunStatus.Running))
        {
            using var _ = await Client.DeleteAsync($"sync/runs/{running.Id}");
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

        var run = await SyncAsync("f=NpgsqlCopy&i=NpgsqlCopy");
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
public sealed class FaultCollection : ICollectionFixture<FaultLab>
{
    public const string Name = "faults";
}
