using Perfolizer.Mathematics.Common;
using Perfolizer.Mathematics.QuantileEstimators;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>The few statistics the tables use, from Perfolizer (as RunStatistics' intervals and tests), with null for too few values.</summary>
public static class Statistics
{
    /// <summary>The sample median (the mean of the middle two for an even count); null without values.</summary>
    public static double? Median(IReadOnlyCollection<double> values) =>
        values.Count == 0 ? null : SimpleQuantileEstimator.Instance.Quantile(values as IReadOnlyList<double> ?? [.. values], 0.5);

    /// <summary>The sample standard deviation (n − 1); null with fewer than two values.</summary>
    public static double? StdDev(IReadOnlyCollection<double> values) =>
        values.Count < 2 ? null : Moments.Create(values as IReadOnlyList<double> ?? [.. values]).StandardDeviation;
}
