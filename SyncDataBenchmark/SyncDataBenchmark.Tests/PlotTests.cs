using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// bench/plot.py on small records built here: what each picture draws, read back from matplotlib's figures as plot.py
/// saves them (Fixtures/plot-figures.py), never from pixels. Not the fast tier: each test runs python.
/// </summary>
public sealed class PlotTests
{
    private static Combination Case(string key) => TestCases.Runnable.Single(c => c.Key == key);

    private static CombinationRun Run(Combination c, int round, double ms, string? share = null) => new()
    {
        Number = c.Number, Case = c.Key + (share is null ? "" : $"[{share}]"), Fetch = c.Fetch.Name, Insert = c.Insert.Name, Round = round, Warmup = round == 0,
        SourceRows = 1_000, WallMs = ms, RunnerVerified = true, Changed = share, ChangedShare = share is null ? null : ChangedShare.Parse(share),
        Changes = share is null ? null : new ChangeMix(7, 2, 1),
        Result = new RunResult
        {
            Id = Guid.NewGuid(), Fetch = c.Fetch.Name, Insert = c.Insert.Name, Status = RunStatus.Succeeded, Verified = true, StartedAt = DateTimeOffset.UnixEpoch, DurationMs = ms,
        },
    };

    private static PeerRun Peer(string key, int round, double ms, bool ok = true, string? share = null) => new()
    {
        Peer = key, Round = round, Warmup = round == 0, SourceRows = 1_000, Status = ok ? RunStatus.Succeeded : RunStatus.Failed, Verified = ok,
        DurationMs = ok ? ms : null, Error = ok ? null : "exit code 1", Scope = PeerScopes.TargetStatements,
        Changed = share, ChangedShare = share is null ? null : ChangedShare.Parse(share),
    };

    /// <summary>What plot.py drew, by picture file name.</summary>
    private static async Task<JsonElement> DrawAsync(BenchReport record)
    {
        var directory = Directory.CreateTempSubdirectory("syncdata-plot-");
        try
        {
            var tables = Path.Combine(directory.FullName, "tables.json");
            await File.WriteAllTextAsync(tables, Charts.TablesJson(ReportTables.Of(record)));
            var options = new ChildProcessOptions
            {
                KeepAllOutput = true,
                Environment = new Dictionary<string, string?> { ["MPLCONFIGDIR"] = Path.Combine(Path.GetTempPath(), "syncdata-matplotlib") },
            };
            var driver = Path.Combine(AppContext.BaseDirectory, "Fixtures", "plot-figures.py");
            var result = await ChildProcess.RunAsync(Charts.Python, [driver, Charts.Script, tables, directory.FullName], options, TimeSpan.FromMinutes(2));

            Assert.True(result.ExitCode == 0, result.StandardError);
            return JsonDocument.Parse(result.StandardOutput).RootElement.Clone();
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    /// <summary>Each panel's lines, from every panel of one picture.</summary>
    private static IEnumerable<JsonElement> Lines(JsonElement picture) => picture.GetProperty("axes").EnumerateArray().SelectMany(a => a.GetProperty("lines").EnumerateArray());

    [Fact]
    public async Task Changed_png_draws_each_peer_in_its_own_colour_marker_and_line_and_names_it()
    {
        string[] shares = ["0.1%", "1%", "10%"];
        string[] peers = [PeerDefinition.PsqlMergeKey, PeerDefinition.PostgresFdwMergeKey, PeerDefinition.LogicalReplicationCatchupKey, PeerDefinition.PsqlBinaryKey];
        var runs = shares.SelectMany((s, i) => new[] { Run(Case("NpgsqlCopy:NpgsqlCopyMerge"), 1, 100 * (i + 1), s), Run(Case("NpgsqlCopy:NpgsqlCopy"), 1, 1_000, s) }).ToList();
        var peerRuns = shares.SelectMany((s, i) => peers.Select((p, k) => Peer(p, 1, 50 * (i + 1) + k, share: s))).ToList();
        var record = SummaryTableTests.Record(runs, peerRuns);
        record = record with { Parameters = record.Parameters with { Changed = shares } };

        var drawn = Lines((await DrawAsync(record)).GetProperty("changed.png")).Where(l => l.GetProperty("label").GetString()!.EndsWith("(peer)", StringComparison.Ordinal)).ToList();

        var labels = drawn.Select(l => l.GetProperty("label").GetString()!).ToList();
        Assert.Equal(peers.Length, labels.Count);
        Assert.All(peers, p => Assert.Single(labels, l => l.Contains(PeerDefinition.Find(p)!.Name + " (peer)", StringComparison.Ordinal)));
        var styles = drawn.Select(l => (Colour: l.GetProperty("color").GetString(), Marker: l.GetProperty("marker").GetString())).ToList();
        Assert.Equal(peers.Length, styles.Select(s => s.Colour).Distinct().Count());
        Assert.Equal(peers.Length, styles.Select(s => s.Marker).Distinct().Count());
    }
}
