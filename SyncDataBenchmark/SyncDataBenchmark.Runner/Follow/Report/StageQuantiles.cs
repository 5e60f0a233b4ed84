using SyncDataBenchmark.Runner.Report;
using Perfolizer.Mathematics.QuantileEstimators;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>One figure of a follow run's stages (FollowStageSummary): Perfolizer's sample quantiles (Hyndman–Fan type 7, as FollowLagSummary).</summary>
public sealed record StageQuantiles(double P50, double P95, double P99)
{
    public static StageQuantiles Of(IReadOnlyList<double> values)
    {
        var quantiles = SimpleQuantileEstimator.Instance;
        return new StageQuantiles(quantiles.Quantile(values, 0.50), quantiles.Quantile(values, 0.95), quantiles.Quantile(values, 0.99));
    }
}
