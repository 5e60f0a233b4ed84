using System.Text.Json;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// --follow end to end: the built runner as its own process, its own cluster and services, the three mechanisms following
/// `users` under pgbench for 5 s; every run verified, its lag sampled, and nothing left behind on either side (the
/// runner's own check after each stop: the lab's cluster is gone once the runner exits).
/// </summary>
[Trait("Tier", "Engine")]
public sealed class FollowBenchCommandTests
{
    [Fact]
    public async Task Follow_runs_each_mechanism_verified_with_lag_figures_and_leaves_no_slot_publication_or_subscription()
    {
        var output = Directory.CreateTempSubdirectory("syncdata-follow-test-");
        try
        {
            var (exitCode, console) = await BenchCommandTests.RunAsync(["--follow", "5s", "--write-rate", "50", "--table", "users", "--rows", "1000", "--no-charts", "--out", output.FullName]);
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");

            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json")));
            Assert.True(json.RootElement.GetProperty("passed").GetBoolean());
            var runs = json.RootElement.GetProperty("follow").EnumerateArray().ToList();
            Assert.Equal(["NpgsqlReplication", "native subscription", "change log polled (1 s)"], runs.Select(r => r.GetProperty("mechanism").GetString()));
            Assert.All(runs, run =>
            {
                Assert.True(run.GetProperty("verified").GetBoolean(), run.ToString());
                Assert.Equal(JsonValueKind.Null, run.GetProperty("leftBehind").ValueKind);
                var lag = run.GetProperty("lag");
                Assert.True(lag.GetProperty("count").GetInt32() > 0, run.ToString());
                Assert.True(lag.GetProperty("p99Ms").GetDouble() >= lag.GetProperty("p50Ms").GetDouble(), run.ToString());
                Assert.True(run.GetProperty("pgbenchTransactions").GetInt64() > 0, run.ToString());
            });
            // The subscription's lag is read from the target's WAL commit records, not its commit timestamp (the source's).
            Assert.True(runs[1].GetProperty("lag").GetProperty("maxMs").GetDouble() > 0, runs[1].ToString());
            Assert.Contains("## Keeping a copy fresh", await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.md")));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}
