using System.Text.Json;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// --follow end to end: the built runner as its own process and services, on a server this test starts (--connection,
/// so the test can look at it after the runner exits), the three mechanisms following `users` under pgbench for 5 s:
/// every run verified with its lag sampled; then a second run stopped by SIGINT mid-load. After each, the server holds
/// no slot, publication or subscription (read by the test itself, not only the runner's own check). Last, a server
/// without track_commit_timestamp is refused with the reason.
/// </summary>
[Trait("Tier", "Engine")]
public sealed class FollowBenchCommandTests
{
    [Fact]
    public async Task Follow_runs_each_mechanism_verified_with_lag_figures_and_leaves_no_slot_publication_or_subscription_even_when_interrupted_and_refuses_a_server_without_commit_timestamps()
    {
        await using var postgres = await LocalPostgres.StartAsync(LabDatabases.LabPostgresSettings);
        var output = Directory.CreateTempSubdirectory("syncdata-follow-test-");
        try
        {
            string[] arguments = ["--connection", postgres.ConnectionString("postgres"), "--write-rate", "50", "--repeat", "1", "--drain", "2000", "--table", "users", "--rows", "1000", "--no-charts", "--out", output.FullName];
            var (exitCode, console) = await BenchCommandTests.RunAsync(["--follow", "5s", "--outage", "2s", .. arguments]);
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");
            await AssertRecordAsync(output.FullName);
            Assert.Equal("", await LeftOnServerAsync(postgres));
            Assert.Equal(4L, await ChangeLogTriggersOnAsync(postgres));

            // Interrupted while pgbench writes and NpgsqlReplication's slot is in use.
            await using var runner = ChildProcess.Start("dotnet", [Lab.BuiltAssembly("SyncDataBenchmark.Runner"), "--follow", "60s", .. arguments], new ChildProcessOptions { KeepAllOutput = true });
            // A safety net, not a threshold: a busy machine makes the first copy and the start slow.
            using (var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5)))
            {
                while (!runner.StandardOutput.Contains("following; pgbench", StringComparison.Ordinal))
                {
                    await Task.Delay(100, timeout.Token);
                }

                await runner.SignalAsync("INT");
                await runner.WaitForExitAsync(timeout.Token);
            }

            Assert.True(runner.ExitCode == 130, $"exit code {runner.ExitCode}:\n{runner.StandardOutput}{runner.StandardError}");
            Assert.Equal("", await LeftOnServerAsync(postgres));
            // Interrupted while NpgsqlReplication ran with them off: the change log's triggers are back on.
            Assert.Equal(4L, await ChangeLogTriggersOnAsync(postgres));

            // A server without commit timestamps cannot time the lag: refused, saying why.
            await using var untracked = await LocalPostgres.StartAsync(new Dictionary<string, string> { ["wal_level"] = "logical" });
            var (refused, why) = await BenchCommandTests.RunAsync(["--follow", "5s", "--connection", untracked.ConnectionString("postgres"), "--rows", "1000", "--no-charts", "--out", output.FullName]);
            Assert.True(refused == 2, $"exit code {refused}:\n{why}");
            Assert.Contains("--follow cannot run here: track_commit_timestamp is off on this server", why);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    private static async Task AssertRecordAsync(string directory)
    {
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(directory, "results.json")));
        Assert.True(json.RootElement.GetProperty("passed").GetBoolean());
        // The runs go in an order drawn from the seed: read back in the mechanisms' own order.
        string[] mechanisms = ["NpgsqlReplication", "native subscription", "change log polled (1 s)"];
        var runs = json.RootElement.GetProperty("follow").EnumerateArray().OrderBy(r => Array.IndexOf(mechanisms, r.GetProperty("mechanism").GetString())).ToList();
        Assert.Equal(mechanisms, runs.Select(r => r.GetProperty("mechanism").GetString()));
        Assert.All(runs, run =>
        {
            Assert.True(run.GetProperty("verified").GetBoolean(), run.ToString());
            Assert.Equal(JsonValueKind.Null, run.GetProperty("leftBehind").ValueKind);
            var lag = run.GetProperty("lag");
            Assert.True(lag.GetProperty("count").GetInt32() > 0, run.ToString());
            Assert.True(lag.GetProperty("p99Ms").GetDouble() >= lag.GetProperty("p50Ms").GetDouble(), run.ToString());
            Assert.True(run.GetProperty("pgbenchTransactions").GetInt64() > 0, run.ToString());
            // The writers' own transactions, from pgbench's log; the change log's triggers on only for the mechanism that reads it.
            var writers = run.GetProperty("writers");
            Assert.True(writers.GetProperty("count").GetInt32() > 0 && writers.GetProperty("medianMs").GetDouble() > 0, run.ToString());
            Assert.Equal(run.GetProperty("mechanism").GetString() == "change log polled (1 s)", run.GetProperty("changeLogTriggers").GetBoolean());
            // --outage: caught up and verified after it; a slot held WAL meanwhile, the polled change log has none.
            var outage = run.GetProperty("outage");
            Assert.True(outage.GetProperty("verified").GetBoolean(), run.ToString());
            Assert.True(outage.GetProperty("walWrittenBytes").GetInt64() > 0, run.ToString());
            Assert.Equal(run.GetProperty("mechanism").GetString() != "change log polled (1 s)", outage.GetProperty("walHeldBytes").ValueKind == JsonValueKind.Number);
            Assert.True(outage.GetProperty("walHeldBytes").ValueKind != JsonValueKind.Number || outage.GetProperty("walHeldBytes").GetInt64() > 0, run.ToString());
            // --drain: a backlog counted, drained verified at a rate, with the whole system's CPU.
            var drain = run.GetProperty("drain");
            Assert.True(drain.GetProperty("verified").GetBoolean() && drain.GetProperty("backlogChanges").GetInt64() > 0 && drain.GetProperty("rowsPerSecond").GetDouble() > 0, run.ToString());
            Assert.True(drain.GetProperty("cpuPerChangeUs").GetDouble() > 0, run.ToString());
        });
        // Where the lag went: NpgsqlReplication's stages over the load's transactions, ordered quantiles; none for the others.
        var stages = runs[0].GetProperty("stages");
        Assert.True(stages.GetProperty("transactions").GetInt32() > 0 && stages.GetProperty("batches").GetInt32() > 0, runs[0].ToString());
        Assert.All(new[] { "decodeMs", "relayMs", "queueMs", "applyMs", "ackMs", "batchTransactions", "batchChanges" }.Select(name => stages.GetProperty(name)), q =>
            Assert.True(q.GetProperty("p50").GetDouble() >= 0 && q.GetProperty("p99").GetDouble() >= q.GetProperty("p50").GetDouble(), runs[0].ToString()));
        Assert.All(runs.Skip(1), run => Assert.Equal(JsonValueKind.Null, run.GetProperty("stages").ValueKind));
        // The subscription's lag is read from the target's WAL commit records, not its commit timestamp (the source's).
        Assert.True(runs[1].GetProperty("lag").GetProperty("maxMs").GetDouble() > 0, runs[1].ToString());
        var markdown = await File.ReadAllTextAsync(Path.Combine(directory, "results.md"));
        Assert.Contains("## Keeping a copy fresh", markdown);
        Assert.Contains("### Where NpgsqlReplication's lag goes", markdown);
        Assert.Contains("### An outage of 2 s under the same load (`--outage`)", markdown);
        AssertCost(runs);
    }

    /// <summary>
    /// Both services' CPU and allocation over the load and catch-up: there and positive for the two .NET mechanisms,
    /// none for the native subscription; allocation's two figures, where both exist, within their stated precision.
    /// No threshold on the amounts: they depend on the machine.
    /// </summary>
    private static void AssertCost(List<JsonElement> runs)
    {
        foreach (var run in runs)
        {
            var cost = run.GetProperty("cost");
            foreach (var service in new[] { "someService", "syncDataSource" })
            {
                var figures = cost.GetProperty(service);
                if (run.GetProperty("mechanism").GetString() == "native subscription")
                {
                    Assert.Equal(JsonValueKind.Null, figures.ValueKind);
                    Assert.Equal("no .NET process takes part", cost.GetProperty(service + "Missing").GetString());
                    continue;
                }

                Assert.True(figures.ValueKind == JsonValueKind.Object, $"{service}: {cost}");
                Assert.True(figures.GetProperty("cpuTimeMs").GetDouble() > 0, $"{service}: {cost}");
                Assert.True(figures.GetProperty("shownAllocatedBytes").GetInt64() > 0, $"{service}: {cost}");
                if (figures.GetProperty("allocatedBytes") is { ValueKind: JsonValueKind.Number } exact
                    && figures.GetProperty("allocationTickBytes") is { ValueKind: JsonValueKind.Number } ticked)
                {
                    Assert.True(Math.Abs(ticked.GetInt64() - exact.GetInt64()) <= figures.GetProperty("allocationTickPrecisionBytes").GetInt64(), $"{service}: {cost}");
                }
            }
        }
    }

    /// <summary>The source's users change-log triggers enabled (inserts, updates, deletes, truncations: 4 when all are).</summary>
    private static async Task<long> ChangeLogTriggersOnAsync(LocalPostgres postgres) => (long)(await Lab.ScalarAsync(postgres.ConnectionString(Lab.SourceDatabase),
        "select count(*) from pg_trigger where tgrelid = 'users'::regclass and tgname like 'users\\_log\\_%' and tgenabled <> 'D'"))!;

    /// <summary>Every slot (the cluster's), publication (the source's) and subscription (the target's) on the server, named; "" when none.</summary>
    private static async Task<string> LeftOnServerAsync(LocalPostgres postgres) => string.Join(", ",
        (string)(await Lab.ScalarAsync(postgres.ConnectionString(Lab.SourceDatabase),
            "select concat_ws(', ', (select string_agg('slot ' || slot_name, ', ') from pg_replication_slots), (select string_agg('publication ' || pubname, ', ') from pg_publication))"))!,
        (string)(await Lab.ScalarAsync(postgres.ConnectionString(Lab.TargetDatabase), "select coalesce(string_agg('subscription ' || subname, ', '), '') from pg_subscription"))!)
        .Trim(',', ' ');
}
