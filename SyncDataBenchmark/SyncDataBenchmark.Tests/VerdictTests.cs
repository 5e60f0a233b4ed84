using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: "What to pick" is computed from the runs by its rule (the fastest median, its ties by the test, the runner-up), and the ratio's interval.</summary>
[Trait("Tier", "Fast")]
public sealed class VerdictTests
{
    private static readonly Combination Raw = CaseNumbers.Runnable.Single(c => c.Key == "NpgsqlCopy:NpgsqlCopyRaw");
    private static readonly Combination Copy = CaseNumbers.Runnable.Single(c => c.Key == "NpgsqlCopy:NpgsqlCopy");
    private static readonly Combination Bulk = CaseNumbers.Runnable.Single(c => c.Key == "NpgsqlCopy:EFBulk");

    private static readonly double[] Jitter = [0, 1, -1, 2, -2, 1, 0, -1, 2, -2];

    private static IEnumerable<CombinationRun> Runs(Combination c, double ms) =>
        Jitter.Select((j, i) => SummaryTableTests.Run(c, i + 1, ms + j, true));

    private static VerdictRow AnyWay(double raw, double copy, double bulk)
    {
        var peers = Jitter.Select((j, i) => SummaryTableTests.Psql(100 + j, "users") with { Round = i + 1 }).ToList();
        var record = SummaryTableTests.Record([.. Runs(Raw, raw), .. Runs(Copy, copy), .. Runs(Bulk, bulk)], peers);
        return Verdict.Build(SummaryTable.Build(record, 1_000, NetworkLink.LoopbackName))[0];
    }

    [Fact]
    public void The_fastest_median_wins_a_way_the_test_cannot_tell_apart_is_a_tie_and_the_runner_up_is_the_first_told_apart()
    {
        var row = AnyWay(raw: 100, copy: 101, bulk: 150);

        Assert.Equal("A full copy, any way", row.Situation);
        Assert.Equal(Raw.Key, row.Use!.Case);
        Assert.Equal([Copy.Key], row.Tied.Select(r => r.Case));
        Assert.Equal(Bulk.Key, row.RunnerUp!.Case);
    }

    [Fact]
    public void The_row_changes_when_its_data_does()
    {
        // The same three, COPY now clearly slower: no tie, and COPY becomes the runner-up.
        var apart = AnyWay(raw: 100, copy: 130, bulk: 150);
        Assert.Equal(Raw.Key, apart.Use!.Case);
        Assert.Empty(apart.Tied);
        Assert.Equal(Copy.Key, apart.RunnerUp!.Case);

        // EFBulk now fastest: it is the one to use.
        var bulkFirst = AnyWay(raw: 100, copy: 130, bulk: 60);
        Assert.Equal(Bulk.Key, bulkFirst.Use!.Case);
        Assert.Equal(Raw.Key, bulkFirst.RunnerUp!.Case);

        // Without the paid licence EFBulk cannot be picked.
        var peers = Jitter.Select((j, i) => SummaryTableTests.Psql(100 + j, "users") with { Round = i + 1 }).ToList();
        var noLicence = Verdict.Build(SummaryTable.Build(SummaryTableTests.Record([.. Runs(Raw, 100), .. Runs(Copy, 130), .. Runs(Bulk, 60)], peers), 1_000, NetworkLink.LoopbackName))
            .Single(r => r.Situation.StartsWith("No paid licence", StringComparison.Ordinal));
        Assert.Equal(Raw.Key, noLicence.Use!.Case);
    }

    [Fact]
    public void Below_five_runs_a_side_nothing_is_called_tied_or_slower_but_too_few_runs_to_compare()
    {
        double[] fast = [100, 101, 99, 100];
        double[] slow = [200, 201, 199, 200];
        // Four a side, twice as slow: Perfolizer's placeholder below five would call it; the lab does not ask.
        Assert.Equal(Perfolizer.Mathematics.Common.ComparisonResult.Unknown, RunStatistics.Compare(slow, fast));
        Assert.Equal(Perfolizer.Mathematics.Common.ComparisonResult.Greater, RunStatistics.Compare([.. slow, 200], [.. fast, 100]));

        var peers = Jitter.Select((j, i) => SummaryTableTests.Psql(100 + j, "users") with { Round = i + 1 }).ToList();
        var record = SummaryTableTests.Record([.. Runs(Raw, 100), .. Runs(Copy, 101), .. Runs(Bulk, 150).Take(3)], peers);
        var row = Verdict.Build(SummaryTable.Build(record, 1_000, NetworkLink.LoopbackName))[0];

        Assert.Equal([Copy.Key], row.Tied.Select(r => r.Case));
        Assert.Equal([Bulk.Key], row.TooFew.Select(r => r.Case));
        Assert.Null(row.RunnerUp);
        Assert.Equal("#7 NpgsqlCopy × EFBulk: 150 ms, 1.50× pipe (median/median), n=3", Verdict.Columns[^1].Cell(row));
    }

    [Fact]
    public void Runs_still_compiling_are_left_out_of_the_row_and_counted()
    {
        var runs = Runs(Copy, 100).ToList();
        runs[0] = runs[0] with { Result = runs[0].Result! with { DurationMs = 900 }, Unsettled = true };
        var record = SummaryTableTests.Record(runs, []);

        var row = SummaryTable.Build(record, 1_000, NetworkLink.LoopbackName).Single() with { UnsettledRuns = 1 };

        Assert.Equal(9, row.Succeeded);
        Assert.Equal(9, row.TimedRuns);
        Assert.DoesNotContain(900, row.Durations);

        // A case whose only run is flagged (a small run, nothing compared: not replaced) has no time in any statistic;
        // its cell says so and shows the run's own time beside it, for what it is.
        var alone = SummaryTable.Build(SummaryTableTests.Record([runs[0]], []), 1_000, NetworkLink.LoopbackName).Single() with { UnsettledRuns = 1 };
        Assert.Equal((0, null), (alone.TimedRuns, alone.MedianMs));
        Assert.Equal("all 1 still compiling (900 ms, left out)", SummaryColumns.Median.Cell(alone));
    }

    [Fact]
    public void The_ratio_interval_holds_the_ratio_and_excludes_one_only_when_the_times_differ()
    {
        double[] pipe = [.. Jitter.Select(j => 100 + j)];

        var same = RunStatistics.Ratio([.. Jitter.Select(j => 100 - j)], pipe)!;
        var slower = RunStatistics.Ratio([.. Jitter.Select(j => 150 + j)], pipe)!;

        Assert.InRange(same.Ratio, same.Lower, same.Upper);
        Assert.False(same.ExcludesOne);
        Assert.InRange(slower.Ratio, slower.Lower, slower.Upper);
        Assert.True(slower.Lower > 1);
        Assert.True(same.Width < 0.1);
        // Too few runs a side: no interval rather than a range dressed as one.
        Assert.Null(RunStatistics.Ratio([100, 101], pipe));
        // Three runs a side give their range, not a 95% interval: none under five (MinIntervalRuns), one from five.
        Assert.Null(RunStatistics.Ratio([100, 101, 102], pipe));
        Assert.Null(RunStatistics.MedianInterval([100, 101, 102, 103]));
        Assert.NotNull(RunStatistics.MedianInterval([100, 101, 102, 103, 104]));
    }
}
