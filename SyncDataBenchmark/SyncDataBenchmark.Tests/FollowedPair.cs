using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Mvc.Testing;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A scratch source and target of their own on the in-process lab's cluster, both services over them (in process, or
/// as processes: <see cref="CreateWithProcessesAsync"/>), and NpgsqlReplication following one table: the follow is
/// stopped and its slot and publication dropped through the API on every exit path (<see cref="DisposeAsync"/>), and
/// anything still left is dropped by SQL, so no test leaves WAL held (nor a database that cannot be dropped: a slot
/// pins its database).
/// </summary>
public sealed class FollowedPair : IAsyncDisposable
{
    /// <summary>Short, so that a quiet stream still confirms its slot's position soon (DrainAsync).</summary>
    private const string HeartbeatSeconds = "0.5";

    private readonly InProcessLab _lab;
    private WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions>? _source;
    private WebApplicationFactory<SomeService.Sync.SyncOptions>? _someService;
    /// <summary>Both services as processes (<see cref="CreateWithProcessesAsync"/>); null when they run in process.</summary>
    private StartedServices? _processes;

    private FollowedPair(InProcessLab lab, string name, SyncTable table, string sourceDb, string targetDb)
    {
        _lab = lab;
        Slot = name;
        Table = table;
        SourceDb = sourceDb;
        TargetDb = targetDb;
    }

    public string Slot { get; }
    public SyncTable Table { get; }
    public string SourceDb { get; }
    public string TargetDb { get; }
    public HttpClient SomeService { get; private set; } = null!;

    /// <summary>Databases named after <paramref name="name"/> (also the slot's name), the source seeded with <paramref name="rows"/> rows of <paramref name="table"/>.</summary>
    public static async Task<FollowedPair> CreateAsync(InProcessLab lab, string name, SyncTable table, long rows) =>
        await CreateAsync(lab, name, table, rows, lab.Postgres);

    /// <summary>The same with the source database on <paramref name="sourceCluster"/> (a cluster a test can restart without the target's), and the target's on <paramref name="targetCluster"/> if given.</summary>
    public static async Task<FollowedPair> CreateAsync(InProcessLab lab, string name, SyncTable table, long rows, LocalPostgres sourceCluster, LocalPostgres? targetCluster = null)
    {
        var pair = await CreateDatabasesAsync(lab, name, table, rows, sourceCluster, targetCluster);
        pair.StartServices();
        return pair;
    }

    /// <summary>
    /// The same with both services as processes on loopback ports, started as the runner starts them
    /// (<see cref="StartedServices"/>), so that a test can kill SomeService's process. SyncDataSource is a process too: a
    /// SomeService process reaches it only over a socket, and an in-process host has none.
    /// </summary>
    public static async Task<FollowedPair> CreateWithProcessesAsync(InProcessLab lab, string name, SyncTable table, long rows)
    {
        var pair = await CreateDatabasesAsync(lab, name, table, rows, lab.Postgres);
        var databases = new LabDatabases(pair.SourceDb, pair.TargetDb, new PeerPlacement(null, pair.SourceDb, pair.TargetDb));
        pair._processes = await new StartedServices(databases, null, RuntimeProfiles.Default)
        {
            SourceSettings = new Dictionary<string, string> { ["Replication__HeartbeatSeconds"] = HeartbeatSeconds },
        }.StartAsync(_ => { }, CancellationToken.None);
        pair.SomeService = pair._processes.CreateSomeServiceClient(TimeSpan.FromMinutes(1));
        return pair;
    }

    /// <summary>
    /// Both services (in process) over databases the caller made: a user's own as the source (its role's connection, as
    /// the runner hands SyncDataSource when following by opt-in) and the lab's target; <paramref name="name"/> names the
    /// pair's slot, which the runner's mechanisms do not use.
    /// </summary>
    public static FollowedPair Over(InProcessLab lab, string name, SyncTable table, string sourceDb, string targetDb)
    {
        var pair = new FollowedPair(lab, name, table, sourceDb, targetDb);
        pair.StartServices();
        return pair;
    }

    private static async Task<FollowedPair> CreateDatabasesAsync(InProcessLab lab, string name, SyncTable table, long rows, LocalPostgres sourceCluster, LocalPostgres? targetCluster = null)
    {
        var sourceDb = await ScratchDatabase.RecreateAsync(sourceCluster, name + "_source");
        var targetDb = await ScratchDatabase.RecreateAsync(targetCluster ?? lab.Postgres, name + "_target");
        await SqlScripts.SeedAsync(sourceDb, table, rows);
        return new FollowedPair(lab, name, table, sourceDb, targetDb);
    }

    private void StartServices()
    {
        _source ??= NewSource();
        _someService = _lab.SomeService(() => _source, new Dictionary<string, string?> { ["ConnectionStrings:Target"] = TargetDb });
        SomeService = _someService.CreateClient();
    }

    private WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions> NewSource()
    {
        var source = _lab.Source(new Dictionary<string, string?> { ["ConnectionStrings:Source"] = SourceDb, ["Replication:HeartbeatSeconds"] = HeartbeatSeconds });
        _ = source.Server; // started now, not at SomeService's first request
        return source;
    }

    /// <summary>SyncDataSource stopped mid-stream (its replication connection closed, the slot kept) and another started; SomeService keeps running.</summary>
    public async Task RestartSourceAsync()
    {
        var stopping = _source!;
        _source = null;
        await stopping.DisposeAsync();
        _source = NewSource();
    }

    /// <summary>SyncDataSource stopped and none started in its place: SomeService's requests to it are refused until <see cref="StartSourceAsync"/>.</summary>
    public async Task StopSourceAsync()
    {
        var stopping = _source!;
        _source = null;
        await stopping.DisposeAsync();
    }

    /// <summary>A SyncDataSource started again after <see cref="StopSourceAsync"/>.</summary>
    public void StartSource() => _source ??= NewSource();

    /// <summary>SomeService stopped mid-stream (its follower's open transaction rolled back) and started again, follower not yet restarted.</summary>
    public async Task RestartSomeServiceAsync()
    {
        SomeService.Dispose();
        await _someService!.DisposeAsync();
        StartServices();
    }

    /// <summary>SomeService's process killed with SIGKILL, as a crash: nothing of its shutdown runs, its connections just drop.</summary>
    public async Task KillSomeServiceAsync()
    {
        var process = _processes!.SomeService;
        await process.KillAsync();
        Assert.True(process.HasExited, "SomeService's process still runs after SIGKILL.");
    }

    /// <summary>A new SomeService process on the same port and target, its follower not yet started.</summary>
    public async Task StartAnotherSomeServiceAsync()
    {
        SomeService.Dispose();
        await _processes!.RestartSomeServiceAsync();
        SomeService = _processes.CreateSomeServiceClient(TimeSpan.FromMinutes(1));
    }

    /// <summary>A client of the in-process SyncDataSource, for a test that speaks to its replication routes itself.</summary>
    public HttpClient CreateSourceClient() => _source!.Server.CreateClient();

    private string FollowRoute => $"{SyncRoutes.Follow}/{Table.Name}";

    public async Task<FollowStatus> StartAsync(int batch = 1000)
    {
        using var response = await SomeService.PostAsync($"{FollowRoute}?slot={Slot}&batch={batch}", null);
        Assert.True(response.StatusCode == HttpStatusCode.Accepted, await response.Content.ReadAsStringAsync());
        return (await response.Content.ReadFromJsonAsync(SyncJsonContext.Default.FollowStatus))!;
    }

    public async Task<FollowStatus> StatusAsync() =>
        (await SomeService.GetFromJsonAsync(FollowRoute, SyncJsonContext.Default.FollowStatus))!;

    /// <summary>Waits until the follower's status satisfies <paramref name="done"/>; fails naming the last status if it never does.</summary>
    public Task<FollowStatus> WaitForAsync(Func<FollowStatus, bool> done, TimeSpan? timeout = null) => WaitForAsync(SomeService, FollowRoute, done, timeout);

    /// <summary>The same for any SomeService's follower of <paramref name="route"/> (follow/{table}).</summary>
    public static async Task<FollowStatus> WaitForAsync(HttpClient someService, string route, Func<FollowStatus, bool> done, TimeSpan? timeout = null)
    {
        var until = DateTime.UtcNow + (timeout ?? TimeSpan.FromSeconds(60));
        var status = (await someService.GetFromJsonAsync(route, SyncJsonContext.Default.FollowStatus))!;
        while (!done(status))
        {
            // A failed follower stays failed: say so now rather than after the timeout.
            Assert.True(status.State != FollowStatus.Failed && DateTime.UtcNow < until, $"The follower never got there: {status}");
            await Task.Delay(100);
            status = (await someService.GetFromJsonAsync(route, SyncJsonContext.Default.FollowStatus))!;
        }

        return status;
    }

    /// <summary>
    /// Once the writes stopped: waits until PostgreSQL's slot has confirmed the source's WAL position read now, which it
    /// does only for an LSN SomeService committed (a transaction's end, or a heartbeat after everything before it).
    /// </summary>
    public async Task DrainAsync(TimeSpan? timeout = null)
    {
        var end = (string)(await Lab.ScalarAsync(SourceDb, "select pg_current_wal_insert_lsn()::text"))!;
        var until = DateTime.UtcNow + (timeout ?? TimeSpan.FromSeconds(60));
        while (!(bool)(await Lab.ScalarAsync(SourceDb, "select coalesce(bool_or(confirmed_flush_lsn >= $1::pg_lsn), false) from pg_replication_slots where slot_name = $2", [end, Slot]))!)
        {
            Assert.True(DateTime.UtcNow < until, $"The slot never confirmed {end}: {await StatusAsync()}");
            await Task.Delay(100);
        }
    }

    /// <summary>DELETE /follow/{table}?drop=true: the follower stopped, the slot and publication dropped.</summary>
    public async Task<HttpStatusCode> StopAsync(bool drop = true)
    {
        using var response = await SomeService.DeleteAsync($"{FollowRoute}?drop={(drop ? "true" : "false")}");
        return response.StatusCode;
    }

    /// <summary>The slot and publication left on the source (0, 0 once dropped).</summary>
    public async Task<(long Slots, long Publications)> LeftOnSourceAsync() =>
        ((long)(await Lab.ScalarAsync(SourceDb, "select count(*) from pg_replication_slots where slot_name = $1", [Slot]))!,
         (long)(await Lab.ScalarAsync(SourceDb, "select count(*) from pg_publication where pubname = $1", [Slot]))!);

    public async ValueTask DisposeAsync()
    {
        try
        {
            await StopAsync();
        }
        finally
        {
            SomeService.Dispose();
            await LabDatabases.DisposeAllAsync(_someService, _source, _processes);
            // Last resort, should a test have broken the API's own drop: a slot left would pin the scratch database.
            await using var connection = new NpgsqlConnection(SourceDb);
            await connection.OpenAsync();
            await using var drop = new NpgsqlCommand(
                "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1 and not active", connection) { Parameters = { new() { Value = Slot } } };
            await drop.ExecuteNonQueryAsync();
        }
    }
}
