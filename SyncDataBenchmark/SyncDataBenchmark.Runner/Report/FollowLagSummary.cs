using Perfolizer.Mathematics.QuantileEstimators;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// A follow run's commit-to-applied lag, summarised from its sample (FollowLag: one lag per surviving row whose source
/// version was committed during the load): the count, Perfolizer's sample quantiles (Hyndman–Fan type 7, as
/// Statistics.Median) and the largest. The sample itself is not kept in the record (up to a row per change).
/// </summary>
public sealed record FollowLagSummary(int Count, double P50Ms, double P95Ms, double P99Ms, double MaxMs)
{
    /// <summary>Null for an empty sample: no row written during the load survived to be timed.</summary>
    public static FollowLagSummary? Of(IReadOnlyList<double> lagsMs)
    {
        if (lagsMs.Count == 0)
        {
            return null;
        }

        var quantiles = SimpleQuantileEstimator.Instance;
        return new FollowLagSummary(lagsMs.Count, quantiles.Quantile(lagsMs, 0.50), quantiles.Quantile(lagsMs, 0.95), quantiles.Quantile(lagsMs, 0.99), lagsMs.Max());
    }
}
