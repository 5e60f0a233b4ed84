using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: --changed's report from a record alone: time against the share per case, and the crossover per library.</summary>
[Trait("Tier", "Fast")]
public sealed class ChangedSweepTests
{
    private static readonly (string Label, double Share)[] Shares = [("0.1%", 0.001), ("1%", 0.01), ("10%", 0.1)];

    private static Combination Case(string fetch, string insert) => CaseNumbers.Runnable.Single(c => c.Key == $"{fetch}:{insert}");

    private static CombinationRun Run(Combination c, (string Label, double Share) share, double ms) => new()
    {
        Number = c.Number, Case = c.Key + $"[{share.Label}]", Fetch = c.Fetch.Name, Insert = c.Insert.Name, Round = 1, Warmup = false, SourceRows = 1_000, WallMs = ms,
        RunnerVerified = true, Changed = share.Label, ChangedShare = share.Share, Changes = new ChangeMix(7, 2, 1),
        Result = new RunResult
        {
            Id = Guid.NewGuid(), Fetch = c.Fetch.Name, Insert = c.Insert.Name, Status = RunStatus.Succeeded, Verified = true, StartedAt = DateTimeOffset.UnixEpoch, DurationMs = ms,
        },
    };

    private static PeerRun Peer(string key, (string Label, double Share) share, double ms) => new()
    {
        Peer = key, Round = 1, Warmup = false, SourceRows = 1_000, Status = RunStatus.Succeeded, Verified = true, DurationMs = ms, Scope = PeerScopes.TargetStatements,
        Changed = share.Label, ChangedShare = share.Share,
    };

    /// <summary>
    /// Npgsql COPY: merge 100 / 400 / 4,000 ms against reload 1,000 ms (flips between 1% and 10%); EF Core: merge always
    /// faster; EFCore.BulkExtensions: reload already faster at 0.1%. <paramref name="repeat"/> runs a case and share,
    /// each 0.1% apart (five: what the test needs).
    /// </summary>
    private static ReportTables Tables(int repeat = 5)
    {
        double[] copyMerge = [100, 400, 4_000], efMerge = [10, 20, 30], bulkMerge = [900, 950, 990];
        var runs = Shares.SelectMany((s, i) => new[]
        {
            (Case("NpgsqlCopy", "NpgsqlCopyMerge"), copyMerge[i]), (Case("NpgsqlCopy", "NpgsqlCopy"), 1_000), (Case("NpgsqlCopy", "NpgsqlCopyTuned"), 1_500),
            (Case("EFStream", "EFMerge"), efMerge[i]), (Case("EFStream", "EFTypical"), 5_000),
            (Case("EFStream", "EFBulkMerge"), bulkMerge[i]), (Case("EFStream", "EFBulk"), 800),
        }.SelectMany(x => Enumerable.Range(0, repeat).Select(k => Run(x.Item1, s, x.Item2 * (1 + (0.001 * k)))))).ToList();
        var peers = Shares.Select((s, i) => Peer(PeerDefinition.PsqlMergeKey, s, copyMerge[i] / 2)).ToList();
        var record = SummaryTableTests.Record(runs, peers);
        record = record with { Parameters = record.Parameters with { Changed = [.. Shares.Select(s => s.Label)] } };
        return ReportTables.Of(record);
    }

    [Fact]
    public void Each_case_is_one_series_across_the_shares_kinds_and_libraries_named()
    {
        var changed = Tables().Changed!;

        Assert.Equal(["0.1%", "1%", "10%"], changed.Shares);
        var merge = changed.Series.Single(s => s.Label.EndsWith("NpgsqlCopy × NpgsqlCopyMerge", StringComparison.Ordinal));
        Assert.Equal((ChangedSeries.Kinds.Merge, "Npgsql COPY"), (merge.Kind, merge.Library));
        Assert.Equal([100.2, 400.8, 4_008.0], merge.Points.Select(p => Math.Round(p.MedianMs!.Value, 1)));
        Assert.Equal([0.001, 0.01, 0.1], merge.Points.Select(p => p.Share));
        Assert.Equal((ChangedSeries.Kinds.Reload, "EFCore.BulkExtensions"), changed.Series.Where(s => s.Label.EndsWith("EFStream × EFBulk", StringComparison.Ordinal)).Select(s => (s.Kind, s.Library)).Single());
        var peer = changed.Series.Single(s => s.Kind == ChangedSeries.Kinds.Peer);
        Assert.Equal("peer: psql temp table + MERGE", peer.Label);
        Assert.Equal(8, changed.Series.Count);
    }

    [Fact]
    public void The_crossover_per_library_is_where_its_fastest_reload_catches_its_fastest_merge()
    {
        var crossovers = Tables().Changed!.Crossovers.ToDictionary(c => c.Library);

        // Npgsql COPY: merge/reload 0.4 at 1%, 4 at 10%: ln ratios -0.916 and 1.386, so about 10^(−2 + 0.916/2.303) ≈ 2.5%.
        var copy = crossovers["Npgsql COPY"];
        Assert.InRange(copy.Share!.Value, 0.0248, 0.0254);
        Assert.Contains("between 1% and 10%", copy.Text, StringComparison.Ordinal);
        Assert.Null(crossovers["EF Core"].Share);
        Assert.StartsWith("merging stays faster at every share measured", crossovers["EF Core"].Text, StringComparison.Ordinal);
        Assert.Equal(0.001, crossovers["EFCore.BulkExtensions"].Share);
        Assert.StartsWith("reloading is already as fast at the smallest share measured", crossovers["EFCore.BulkExtensions"].Text, StringComparison.Ordinal);

        // Three runs a side: the same medians, no call either way (Mann-Whitney cannot reach p < 0.05 with three).
        var few = Tables(repeat: 3).Changed!.Crossovers;
        Assert.All(few, c => Assert.Null(c.Share));
        Assert.All(few, c => Assert.StartsWith("too few runs to compare (fewer than 5 runs a side; the medians: 0.1%: merge", c.Text, StringComparison.Ordinal));
    }

    [Fact]
    public void Results_md_states_the_crossovers_the_fastest_merge_against_psql_merge_and_the_change_counts()
    {
        var md = MarkdownReport.Render(Tables(), charts: true);

        Assert.Contains("## Changed rows: merge the changes or reload everything", md, StringComparison.Ordinal);
        Assert.Contains("- **Npgsql COPY**: reloading beats merging from about 2.5", md, StringComparison.Ordinal);
        Assert.Contains("- 1%: #", md, StringComparison.Ordinal);
        Assert.Contains("EFStream × EFMerge 20 ms against 200 ms: 0.10× (median/median).", md, StringComparison.Ordinal);
        Assert.Contains("| users | 1% | 10 | 7 | 2 | 1 | 35 |", md, StringComparison.Ordinal);
        Assert.Contains("![Time against the changed share, per case](changed.png)", md, StringComparison.Ordinal);
        Assert.Contains("![Time and memory across combinations](summary-0.1pct.png)", md, StringComparison.Ordinal);
    }

    [Fact]
    public void Without_changed_there_is_no_sweep_and_no_share_in_the_record()
    {
        var tables = Tables();
        var plain = tables.Record with { Parameters = tables.Record.Parameters with { Changed = null }, Runs = [], Peers = [] };

        Assert.Null(ReportTables.Of(plain).Changed);
        Assert.DoesNotContain("Changed", MarkdownReport.Render(ReportTables.Of(plain), charts: false), StringComparison.Ordinal);
        var json = System.Text.Json.JsonSerializer.Serialize(Run(Case("NpgsqlCopy", "NpgsqlCopy"), Shares[0], 1) with { Changed = null, ChangedShare = null, Changes = null });
        Assert.DoesNotContain("changed", json, StringComparison.OrdinalIgnoreCase);
    }
}
