using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: generated row classes against written ones (results.md, "Generated row classes against written ones"): what the interval says of the 1.03× goal.</summary>
[Trait("Tier", "Fast")]
public sealed class RowClassRatioTests
{
    [Theory]
    [InlineData(new double[] { 101, 102, 101, 102, 101 }, "within 1.03×")]
    [InlineData(new double[] { 106, 107, 105, 106, 106 }, "beyond 1.03×")]
    [InlineData(new double[] { 95, 100, 103, 110, 115 }, "not told apart from 1.03×")]
    [InlineData(new double[] { 105, 106 }, "no interval")]
    public void The_goal_is_met_missed_or_not_told_apart_as_the_ratios_interval_says(double[] generated, string verdict)
    {
        double[] written = [100, 100, 100, 100, 100];

        var ratio = new RowClassRatio("#9 NpgsqlCopy × EFBulk", "users", 100_000, 100, written.Length, generated.Order().ElementAt(generated.Length / 2), generated.Length,
            RunStatistics.Ratio(generated, written));

        Assert.StartsWith(verdict, ratio.Verdict, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_committed_record_gives_every_case_generated_over_written_from_its_own_timed_runs()
    {
        // ./bench.sh --table users,public.users,orders,public.orders --rows 100000 … --repeat 15 --max-repeat 15 (docs/tables.md).
        var report = await ResultsFile.ReadAsync(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", "row-classes", ResultsFile.FileName));

        var ratios = RowClassRatios.Build(ReportTables.Of(report));

        Assert.Equal(5 * 2, ratios.Count);
        foreach (var ratio in ratios)
        {
            // Runs flagged as still compiling are left out: each side's own settled runs.
            var runs = report.Runs.Where(r => r.Counts && ratio.Case.StartsWith($"#{r.Number} ", StringComparison.Ordinal)).ToList();
            double Median(string table) => Statistics.Median([.. Runs(runs, table)])!.Value;
            Assert.Equal((Runs(runs, ratio.Table).Count(), Runs(runs, "public." + ratio.Table).Count()), (ratio.WrittenRuns, ratio.GeneratedRuns));
            Assert.All(report.Runs.Where(r => !r.Warmup && r.Ok && ratio.Case.StartsWith($"#{r.Number} ", StringComparison.Ordinal)).GroupBy(r => r.Table), g => Assert.Equal(15, g.Count()));
            Assert.Equal(Median("public." + ratio.Table) / Median(ratio.Table), ratio.Ratio, 9);
            Assert.InRange(ratio.Ratio, ratio.Interval!.Lower, ratio.Interval.Upper);
        }
    }

    private static IEnumerable<double> Runs(IEnumerable<CombinationRun> runs, string table) =>
        runs.Where(r => r.Table == table).Select(r => r.Result!.DurationMs!.Value);
}
