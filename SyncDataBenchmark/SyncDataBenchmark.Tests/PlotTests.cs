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
[Trait("Tier", "Lab")]
public sealed class PlotTests
{
    private static Combination Case(string key) => CaseNumbers.Runnable.Single(c => c.Key == key);

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
    private static async Task<JsonElement> DrawAsync(BenchResults record)
    {
        var directory = Directory.CreateTempSubdirectory("syncdata-plot-");
        try
        {
            var tables = Path.Combine(directory.FullName, "tables.json");
            await File.WriteAllTextAsync(tables, Charts.TablesJson(ReportTables.Of(record)));
            var options = new ChildProcessOptions
            {
                KeepAllOutput = true,
                // Importing plot.py must not leave bench/__pycache__ in the work tree.
                Environment = new Dictionary<string, string?> { ["MPLCONFIGDIR"] = Path.Combine(Path.GetTempPath(), "syncdata-matplotlib"), ["PYTHONDONTWRITEBYTECODE"] = "1" },
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

        var picture = (await DrawAsync(record)).GetProperty("changed.png");
        var drawn = Lines(picture).Where(l => l.GetProperty("label").GetString()!.EndsWith("(peer)", StringComparison.Ordinal)).ToList();

        var labels = drawn.Select(l => l.GetProperty("label").GetString()!).ToList();
        Assert.Equal(peers.Length, labels.Count);
        Assert.All(peers, p => Assert.Single(labels, l => l.Contains(PeerDefinition.Find(p)!.Name + " (peer)", StringComparison.Ordinal)));
        var styles = drawn.Select(l => (Colour: l.GetProperty("color").GetString(), Marker: l.GetProperty("marker").GetString())).ToList();
        Assert.Equal(peers.Length, styles.Select(s => s.Colour).Distinct().Count());
        Assert.Equal(peers.Length, styles.Select(s => s.Marker).Distinct().Count());
        // One timed run recorded of the record's --repeat 2: the title counts the runs there are.
        Assert.Contains("(median of 1)", picture.GetProperty("axes")[0].GetProperty("title").GetString(), StringComparison.Ordinal);
    }

    /// <summary>
    /// Stopped in the second of 3 asked rounds: one case timed twice, one once, one peer timed, one whose timed run
    /// failed, one that only warmed up. The titles give the timed runs recorded, and the peer that never got its
    /// timed run is told apart from the one that failed.
    /// </summary>
    [Fact]
    public async Task An_interrupted_runs_pictures_count_the_runs_recorded_and_tell_not_run_from_failed()
    {
        var (copy, stream) = (Case("NpgsqlCopy:NpgsqlCopy"), Case("EFStream:NpgsqlCopy"));
        var record = SummaryTableTests.Record(
            [Run(copy, 0, 120), Run(copy, 1, 100), Run(copy, 2, 110), Run(stream, 0, 220), Run(stream, 1, 200)],
            [
                Peer(PeerDefinition.PsqlBinaryKey, 0, 60), Peer(PeerDefinition.PsqlBinaryKey, 1, 50),
                Peer(PeerDefinition.PsqlTextKey, 0, 80), Peer(PeerDefinition.PsqlTextKey, 1, 0, ok: false),
                Peer(PeerDefinition.PgcopydbKey, 0, 90),
            ]);
        record = record with { Complete = false, Parameters = record.Parameters with { Repeat = 3 } };

        var drawn = await DrawAsync(record);

        var summary = drawn.GetProperty("summary.png");
        Assert.Contains("median of 1–2", summary.GetProperty("title").GetString(), StringComparison.Ordinal);
        var time = summary.GetProperty("axes")[0];
        var said = time.GetProperty("yticklabels").EnumerateArray().Select(l => l.GetString()!)
            .Zip(time.GetProperty("texts").EnumerateArray().Select(t => t.GetString()!.Trim())).ToDictionary();
        Assert.Equal("not run (interrupted)", said[$"peer: {PeerDefinition.Find(PeerDefinition.PgcopydbKey)!.Name}"]);
        Assert.Equal("no successful run", said[$"peer: {PeerDefinition.Find(PeerDefinition.PsqlTextKey)!.Name}"]);
        Assert.StartsWith("50 ms", said[$"peer: {PeerDefinition.Find(PeerDefinition.PsqlBinaryKey)!.Name}"], StringComparison.Ordinal);
        Assert.Contains("best of 2: 100 ms", drawn.GetProperty($"{copy.Number}.png").GetProperty("title").GetString(), StringComparison.Ordinal);
        Assert.Contains("best of 1: 200 ms", drawn.GetProperty($"{stream.Number}.png").GetProperty("title").GetString(), StringComparison.Ordinal);
    }

    /// <summary>
    /// Three cases and the pipe, ten runs each: summary.png sorts by median (not by TestCase number), draws each median's
    /// interval as a whisker, marks the two cases no test tells apart as a tie, and grid.png puts each combination's
    /// median/median ratio to the pipe at its fetch's row and its insert's column.
    /// </summary>
    [Fact]
    public async Task Summary_sorts_by_median_with_whiskers_and_ties_and_the_grid_holds_each_ratio_at_its_fetch_and_insert()
    {
        var (copy, raw, stream) = (Case("NpgsqlCopy:NpgsqlCopy"), Case("NpgsqlCopy:NpgsqlCopyRaw"), Case("EFStream:NpgsqlCopy"));
        double[] jitter = [0, 1, -1, 2, -2, 1, 0, -1, 2, -2];
        var runs = jitter.SelectMany((j, i) => new[] { Run(stream, i + 1, 300 + j), Run(raw, i + 1, 101 + j), Run(copy, i + 1, 100 + j) }).ToList();
        var pipe = jitter.Select((j, i) => Peer(PeerDefinition.PsqlBinaryKey, i + 1, 200 + j)).ToList();
        var record = SummaryTableTests.Record(runs, pipe);
        record = record with { Parameters = record.Parameters with { Seed = 1 } };

        var drawn = await DrawAsync(record);

        var time = drawn.GetProperty("summary.png").GetProperty("axes")[0];
        var labels = time.GetProperty("yticklabels").EnumerateArray().Select(l => l.GetString()!).ToList();
        // Fastest median first; the raw relay is not told apart from COPY: marked as tied with the row above.
        Assert.Equal([$"#{copy.Number} NpgsqlCopy × NpgsqlCopy", $"≈ #{raw.Number} NpgsqlCopy × NpgsqlCopyRaw", $"peer: {PeerDefinition.Find(PeerDefinition.PsqlBinaryKey)!.Name}", $"#{stream.Number} EFStream × NpgsqlCopy"], labels);
        Assert.Equal(4, time.GetProperty("lines").EnumerateArray().Count(l => l.GetProperty("label").GetString() == "_interval"));
        Assert.StartsWith("300 ms  1.50× pipe [", time.GetProperty("texts")[3].GetString()!.Trim(), StringComparison.Ordinal);

        var grid = drawn.GetProperty("grid.png").GetProperty("axes")[0];
        Assert.Equal(["NpgsqlCopy", "EFStream"], grid.GetProperty("yticklabels").EnumerateArray().Select(l => l.GetString()));
        Assert.Equal(["NpgsqlCopy", "NpgsqlCopyRaw"], grid.GetProperty("xticklabels").EnumerateArray().Select(l => l.GetString()));
        var cells = grid.GetProperty("texts").EnumerateArray().Select(t => t.GetString()!).ToList();
        Assert.Equal(3, cells.Count);
        Assert.Contains(cells, c => c.StartsWith("1.50×\n[", StringComparison.Ordinal));
        Assert.Contains(cells, c => c.StartsWith("0.50×\n[", StringComparison.Ordinal));
    }
}
