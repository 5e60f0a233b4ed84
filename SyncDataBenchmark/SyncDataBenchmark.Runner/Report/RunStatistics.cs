using Perfolizer.Mathematics.Common;
using Perfolizer.Mathematics.QuantileEstimators;
using Perfolizer.Mathematics.SignificanceTesting;
using Perfolizer.Mathematics.SignificanceTesting.MannWhitney;
using Perfolizer.Metrology;
using Pragmastat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The statistics the runner decides and reports with, all from Perfolizer (BenchmarkDotNet's): each median's interval
/// by Harrell-Davis with Maritz-Jarrett, and whether two cases differ by a Mann-Whitney test with a threshold
/// (SimpleEquivalenceTest, as BenchmarkDotNet's StatisticalTestColumn).
/// </summary>
public static class RunStatistics
{
    /// <summary>
    /// Each side's median interval at this level: by the union bound both hold their medians together with at least
    /// 95%, so the ratio's interval (the quotient of the two) covers the ratio of the medians with at least 95%.
    /// </summary>
    public const double SideConfidence = 0.975;

    /// <summary>A difference smaller than this share of the times is a tie whatever the test (BenchmarkDotNet's threshold).</summary>
    public const string TieThreshold = "3%";

    /// <summary>The significance level of the test.</summary>
    public const double Alpha = 0.05;

    /// <summary>
    /// The fewest runs a side the test is asked with: below five Perfolizer's SimpleEquivalenceTest does not test (its
    /// source calls that branch a placeholder and decides by the Hodges-Lehmann shift alone), and Mann-Whitney with three a
    /// side cannot reach p &lt; 0.05. Fewer: <see cref="TooFewRuns"/>, no call either way.
    /// </summary>
    public const int MinTestRuns = 5;

    /// <summary><see cref="MinTestRuns"/> as a constant string, for the legends written as constants.</summary>
    public const string MinTestRunsText = "5";

    /// <summary>What the reports say of two cases the test was not asked about: one has fewer than <see cref="MinTestRuns"/> runs.</summary>
    public const string TooFewRuns = "too few runs to compare";

    /// <summary>The sample median; null without values.</summary>
    public static double? Median(IReadOnlyCollection<double> values) => Statistics.Median(values);

    /// <summary>
    /// The fewest runs a side an interval is given from: Maritz-Jarrett's interval rests on the runs' own spread, and
    /// from three it is little more than their range (the brief's trap: the 3-run "95% intervals" were [min/max, max/min]).
    /// </summary>
    public const int MinIntervalRuns = 5;

    /// <summary>The median's interval at <see cref="SideConfidence"/>; null with fewer than <see cref="MinIntervalRuns"/> values.</summary>
    public static (double Lower, double Upper)? MedianInterval(IReadOnlyList<double> values)
    {
        if (values.Count < MinIntervalRuns)
        {
            return null;
        }

        var interval = HarrellDavisQuantileEstimator.Instance.QuantileConfidenceIntervalEstimator(new Sample(values.ToArray()), 0.5)
            .ConfidenceInterval(SideConfidence);
        return (interval.Lower, interval.Upper);
    }

    /// <summary><paramref name="x"/>'s median over <paramref name="y"/>'s, with its interval; null when either has too few runs.</summary>
    public static MedianRatio? Ratio(IReadOnlyList<double> x, IReadOnlyList<double> y)
    {
        if (MedianInterval(x) is not { } a || MedianInterval(y) is not { } b || Median(y) is not { } my || my <= 0 || Median(x) is not { } mx)
        {
            return null;
        }

        // A median's lower bound can reach zero or below from few, spread runs: the ratio is then unbounded, no interval.
        return b.Lower > 0 ? new MedianRatio(mx / my, Math.Max(0, a.Lower) / b.Upper, a.Upper / b.Lower) : null;
    }

    /// <summary>
    /// How <paramref name="x"/>'s times compare with <paramref name="y"/>'s: Lesser (x faster), Greater (x slower) only when
    /// the test says so past <see cref="TieThreshold"/>; Indistinguishable (a tie) otherwise; Unknown with fewer than
    /// <see cref="MinTestRuns"/> runs a side (<see cref="TooFewRuns"/>).
    /// </summary>
    public static ComparisonResult Compare(IReadOnlyList<double> x, IReadOnlyList<double> y)
    {
        if (x.Count < MinTestRuns || y.Count < MinTestRuns)
        {
            return ComparisonResult.Unknown;
        }

        return new SimpleEquivalenceTest(MannWhitneyTest.Instance)
            .Perform(new Sample(x.ToArray()), new Sample(y.ToArray()), Threshold.Parse(TieThreshold), Alpha);
    }
}
