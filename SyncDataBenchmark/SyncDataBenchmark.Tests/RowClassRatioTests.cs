using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: generated row classes against written ones (results.md, "Generated row classes against written ones"): what the interval says of the 1.1× goal.</summary>
[Trait("Tier", "Fast")]
public sealed class RowClassRatioTests
{
    [Theory]
    [InlineData(new double[] { 104, 105, 106, 105, 105 }, "within 1.10×")]
    [InlineData(new double[] { 120, 121, 119, 120, 120 }, "beyond 1.10×")]
    [InlineData(new double[] { 95, 100, 110, 120, 125 }, "not told apart from 1.10×")]
    [InlineData(new double[] { 105, 106 }, "no interval")]
    public void The_goal_is_met_missed_or_not_told_apart_as_the_ratios_interval_says(double[] generated, string verdict)
    {
        double[] written = [100, 100, 100, 100, 100];

        var ratio = new RowClassRatio("#9 NpgsqlCopy × EFBulk", "users", 100_000, 100, written.Length, generated.Order().ElementAt(generated.Length / 2), generated.Length,
            RunStatistics.Ratio(generated, written));

        Assert.StartsWith(verdict, ratio.Verdict, StringComparison.Ordinal);
    }
}
