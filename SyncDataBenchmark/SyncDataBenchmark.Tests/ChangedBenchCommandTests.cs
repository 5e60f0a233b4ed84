using System.Globalization;
using System.Text.Json;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// --changed end to end: the built runner starting its own cluster and services, every merge writer with each change
/// fetch and with the full COPY fetch, every reload with that fetch, and the change peers, from a target that equalled
/// the source before 1% of it changed, each verified by SomeService and by the runner, and the section and picture
/// that answer "merge or reload".
/// </summary>
[Trait("Tier", "Engine")]
public sealed class ChangedBenchCommandTests
{
    private const long Rows = 2_000;

    // Every combination with a change fetch, and every writer (merges and reloads) with the full COPY fetch: a quarter of
    // the matrix, so the run stays well inside BenchCommandTests.RunAsync's 4 minutes on a busy machine.
    private static readonly CaseSelection Cases = CaseSelection.Parse(["EFStreamChanges:*,NpgsqlCopyChanges:*,NpgsqlCopy:*"], out _);

    [Fact]
    public async Task Bench_with_changed_runs_every_merge_and_reload_and_the_change_peers_verified_from_a_changed_target()
    {
        var output = Directory.CreateTempSubdirectory("syncdata-changed-bench-test-");
        try
        {
            var (exitCode, console) = await BenchCommandTests.RunAsync(["--changed", "1%", "--rows", Rows.ToString(CultureInfo.InvariantCulture), "--repeat", "1", "--max-repeat", "1", "--max-warmup", "1", "--jit-threshold-ms", "100000",
                "--profile", "default", "--cases", string.Join(',', Cases.Patterns), "--out", output.FullName]);
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");

            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json")));
            var report = json.RootElement;
            Assert.True(report.GetProperty("passed").GetBoolean());
            Assert.Equal(["1%"], report.GetProperty("parameters").GetProperty("changed").EnumerateArray().Select(s => s.GetString()));
            var runs = report.GetProperty("runs").EnumerateArray().ToList();
            var selected = CaseNumbers.Runnable.Where(c => Cases.Matches(c.Fetch, c.Insert)).ToList();
            Assert.Contains(selected, c => c.Merges && CaseNumbers.Approaches[c.Fetch].Changes);
            Assert.Contains(selected, c => c.Merges && !CaseNumbers.Approaches[c.Fetch].Changes);
            Assert.Contains(selected, c => !c.Merges);
            Assert.Equal(selected.Count * 2, runs.Count);
            foreach (var c in selected)
            {
                var ofCase = runs.Where(r => r.GetProperty("case").GetString() == c.Key + "[1%]").ToList();
                Assert.True(ofCase.Count == 2, $"{c.Key}: {ofCase.Count} runs");
                Assert.All(ofCase, r => AssertChangedAndVerified(r, c.Key));
                Assert.All(ofCase, r => Assert.True(r.GetProperty("result").GetProperty("verified").GetBoolean(), c.Key));
            }

            var peers = report.GetProperty("peers").EnumerateArray().ToList();
            string[] peerKeys = [PeerDefinition.PsqlBinaryKey, PeerDefinition.PsqlMergeKey, PeerDefinition.PostgresFdwMergeKey, PeerDefinition.LogicalReplicationCatchupKey];
            Assert.Equal(peerKeys.Order(), peers.Select(p => p.GetProperty("peer").GetString()!).Distinct().Order());
            Assert.All(peers, p => AssertChangedAndVerified(p, p.GetProperty("peer").GetString()!));

            var cost = Assert.Single(report.GetProperty("triggerCosts").EnumerateArray());
            Assert.Equal(("users", "1%"), (cost.GetProperty("table").GetString(), cost.GetProperty("changed").GetString()));
            Assert.True(cost.GetProperty("trackedMs").GetDouble() > 0 && cost.GetProperty("untrackedMs").GetDouble() > 0);

            var markdown = await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.md"));
            Assert.Contains("## Changed rows: merge the changes or reload everything", markdown, StringComparison.Ordinal);
            Assert.Contains("Crossover per library", markdown, StringComparison.Ordinal);
            Assert.Contains("What change tracking costs the source's writers", markdown, StringComparison.Ordinal);
            Assert.Contains("ChangedUpdated,ChangedInserted,ChangedDeleted", (await File.ReadAllLinesAsync(Path.Combine(output.FullName, "results.csv")))[0], StringComparison.Ordinal);
            var picture = await File.ReadAllBytesAsync(Path.Combine(output.FullName, "changed.png"));
            Assert.Equal((byte)'P', picture[1]);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    /// <summary>A run started from a changed target (its share and what changed recorded) and verified by the runner, whatever the tool said.</summary>
    private static void AssertChangedAndVerified(JsonElement run, string name)
    {
        Assert.True(run.GetProperty("changed").GetString() == "1%", name);
        var changes = run.GetProperty("changes");
        Assert.True(changes.GetProperty("updated").GetInt64() + changes.GetProperty("inserted").GetInt64() + changes.GetProperty("deleted").GetInt64() >= Rows / 100, name);
        Assert.True(run.TryGetProperty("runnerVerified", out var runner) ? runner.GetBoolean() : run.GetProperty("verified").GetBoolean(), name);
        Assert.False(run.TryGetProperty("error", out var error) && error.ValueKind == JsonValueKind.String, $"{name}: {error}");
    }
}
