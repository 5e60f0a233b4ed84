using System.Text.Json;
using SyncData.Harness;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// `--connection` to a server without wal_level = logical (docs/peers.md): the logical-replication peer is skipped with
/// the reason and what to change, on the console and in the report, and the rest of the bench runs and exits 0.
/// </summary>
[Trait("Tier", "Engine")]
public sealed class WalLevelTests
{
    [Fact]
    public async Task A_server_with_wal_level_replica_skips_logical_replication_with_the_reason_and_runs_the_rest()
    {
        await using var postgres = await LocalPostgres.StartAsync(new Dictionary<string, string> { ["wal_level"] = "replica" });
        var output = Directory.CreateTempSubdirectory("syncdata-wal-level-test-");
        try
        {
            var (exitCode, console) = await BenchCommandTests.RunAsync(["--connection", postgres.ConnectionString("postgres"), "--rows", "1500", "--repeat", "1", "--max-repeat", "1", "--max-warmup", "1",
                "--cases", "NpgsqlCopy:NpgsqlCopy", "--profile", "default", "--no-charts", "--out", output.FullName]);

            const string reason = "wal_level is replica on the source server; set wal_level = logical and restart it to include this peer";
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");
            Assert.Contains(reason, console);
            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json")));
            var report = json.RootElement;
            Assert.True(report.GetProperty("passed").GetBoolean());
            var skipped = Assert.Single(report.GetProperty("skippedPeers").EnumerateArray());
            Assert.Equal(PeerDefinition.LogicalReplicationKey, skipped.GetProperty("peer").GetString());
            Assert.Equal(reason, skipped.GetProperty("reason").GetString());
            Assert.Contains(reason, await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.md")));

            // The skipped peer never ran; another peer and the combination ran and verified.
            var peers = report.GetProperty("peers").EnumerateArray().ToList();
            Assert.DoesNotContain(peers, p => p.GetProperty("peer").GetString() == PeerDefinition.LogicalReplicationKey);
            Assert.Contains(peers, p => p.GetProperty("peer").GetString() == PeerDefinition.PsqlBinaryKey && p.GetProperty("verified").GetBoolean());
            Assert.All(report.GetProperty("runs").EnumerateArray(), r => Assert.True(r.GetProperty("runnerVerified").GetBoolean()));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}
