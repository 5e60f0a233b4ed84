using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: the median ratio to the psql pipes and its interval (RunStatistics.Ratio; results.md, "Against the psql pipes").</summary>
[Trait("Tier", "Fast")]
public sealed class FloorRatioTests
{
    [Fact]
    public void Runs_without_spread_give_an_interval_that_is_the_ratio_itself()
    {
        var interval = FloorRatios.Interval([130, 130, 130, 130, 130], [100, 100, 100, 100, 100])!.Value;

        Assert.Equal(1.3, interval.Low, 6);
        Assert.Equal(1.3, interval.High, 6);
    }

    [Fact]
    public void Spread_widens_the_interval_around_the_ratio_and_the_same_runs_give_the_same_interval()
    {
        double[] steady = [100, 101, 99, 100, 100];
        double[] noisy = [70, 90, 100, 110, 140];

        var tight = FloorRatios.Interval(steady, [100, 100, 100, 100, 100])!.Value;
        var wide = FloorRatios.Interval(steady, noisy)!.Value;

        Assert.True(tight.Low <= 1 && tight.High >= 1, $"{tight}");
        Assert.True(wide.Low < 0.95 && wide.High > 1.05, $"{wide}");
        Assert.True(wide.High - wide.Low > 3 * (tight.High - tight.Low), $"{tight} against {wide}");
        Assert.Equal(wide, FloorRatios.Interval(steady, noisy));
    }

    [Fact]
    public void A_side_with_fewer_than_three_runs_has_a_ratio_but_no_interval()
    {
        var ratio = FloorRatios.Compare("#9", 1_000, PeerDefinition.PsqlBinaryKey, [120, 120], [100, 110]);

        Assert.Equal(120 / 105d, ratio.Ratio, 9);
        Assert.Null(ratio.Low);
        Assert.Null(ratio.High);
    }

    [Fact]
    public async Task A_sweeps_record_gives_every_case_against_each_pipe_at_every_size_from_its_timed_runs_only()
    {
        // The committed sweep: four COPY cases and both pipes at three sizes, 40 warm-up rounds at the first.
        var report = await ResultsFile.ReadAsync(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", "floor-warm", ResultsFile.FileName));

        var ratios = FloorRatios.Build(ReportTables.Of(report));

        Assert.Equal(4 * 3 * 2, ratios.Count);
        foreach (var ratio in ratios)
        {
            var runs = report.Runs.Where(r => !r.Warmup && r.SourceRows == ratio.Rows && ratio.Title.StartsWith($"#{r.Number} ", StringComparison.Ordinal)).Select(r => r.Result!.DurationMs!.Value).Order().ToList();
            var peer = report.Peers.Where(p => !p.Warmup && p.SourceRows == ratio.Rows && p.Peer == ratio.Peer).Select(p => p.DurationMs!.Value).Order().ToList();
            Assert.Equal((5, 5), (ratio.Runs, ratio.PeerRuns));
            Assert.Equal(runs[2] / peer[2], ratio.Ratio, 9);
            Assert.InRange(ratio.Ratio, ratio.Low!.Value, ratio.High!.Value);
        }
    }
}
