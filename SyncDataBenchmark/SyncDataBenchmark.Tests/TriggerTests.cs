using System.Net;
using System.Text.Json;
using Npgsql;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// SomeService's trigger as a new user meets it, in process over the in-process lab's databases: a table name in any
/// letter case (as approach names), and a wait=true client that goes away, which leaves its run going on to commit
/// (docs/endpoints.md says so).
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class TriggerTests(InProcessLab lab) : IAsyncLifetime
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);
    private InProcessPair _pair = null!;

    private SomeServiceClient Client => _pair.SomeService;

    public Task InitializeAsync()
    {
        _pair = lab.Pair();
        return Task.CompletedTask;
    }

    public async Task DisposeAsync() => await _pair.DisposeAsync();

    [Theory]
    [InlineData("ORDERS", "orders")]
    [InlineData("Users", "users")]
    public async Task Table_names_are_case_insensitive_as_approach_names_are(string asked, string moved)
    {
        var table = SyncData.Postgres.SyncTable.Named(moved);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, table, await Lab.ReadChecksumAsync(lab.SourceDb, table));
        using var response = await Client.Http.GetAsync($"sync?f=npgsqlcopy&i=NPGSQLCOPY&wait=true&table={asked}");
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"table={asked}: {(int)response.StatusCode} {body}");
        var run = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
        Assert.Equal(moved, run.Table);
        Assert.True(run.Verified, run.Error);
    }

    [Fact]
    public async Task A_waiting_client_that_goes_away_leaves_the_run_going_on_to_commit()
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        Guid id;
        // The target's table locked: the run cannot write, so it is still running when its client goes away, whatever the machine's speed.
        await using (var blocker = new NpgsqlConnection(lab.TargetDb + ";Pooling=false"))
        {
            await blocker.OpenAsync();
            await using var hold = await blocker.BeginTransactionAsync();
            await using (var lockTable = new NpgsqlCommand("lock table users in access exclusive mode", blocker, hold))
            {
                await lockTable.ExecuteNonQueryAsync();
            }

            using var goAway = new CancellationTokenSource();
            var waiting = Client.TriggerAsync("NpgsqlCopy", "NpgsqlCopy", wait: true, ct: goAway.Token);
            id = await RunningRunAsync();
            await goAway.CancelAsync();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
            Assert.Equal(RunStatus.Running, (await Client.GetRunAsync(id))!.Status);
            await hold.RollbackAsync();
        }

        var run = await FinishedAsync(id);
        Assert.True(run.Status == RunStatus.Succeeded && run.Verified, $"{run.Status}: {run.Error}");
        Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb), await Lab.ReadChecksumAsync(lab.TargetDb));
    }

    private async Task<Guid> RunningRunAsync()
    {
        using var patience = new CancellationTokenSource(Patience);
        while (true)
        {
            if ((await Client.ListRunsAsync(5, patience.Token)).FirstOrDefault(r => r.Status == RunStatus.Running) is { } running)
            {
                return running.Id;
            }

            await Task.Delay(50, patience.Token);
        }
    }

    private async Task<RunResult> FinishedAsync(Guid id)
    {
        using var patience = new CancellationTokenSource(Patience);
        while (true)
        {
            if (await Client.GetRunAsync(id, patience.Token) is { Status: not RunStatus.Running } run)
            {
                return run;
            }

            await Task.Delay(100, patience.Token);
        }
    }
}
