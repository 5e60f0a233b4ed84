using SyncDataBenchmark.Runner.Report;
using HdrHistogram;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// A follow run's commit-to-applied lag, summarised from its sample (FollowLag: one lag per surviving row whose source
/// version was committed during the load): every lag recorded in an HdrHistogram (µs, 3 significant digits, up to a
/// day: none dropped, none beyond its range), its count, p50, p95, p99 (the histogram's nearest rank, within 0.1%) and
/// largest. The sample itself is not kept in the record (up to a row per change).
/// </summary>
public sealed record FollowLagSummary(int Count, double P50Ms, double P95Ms, double P99Ms, double MaxMs)
{
    private static readonly long HighestUs = (long)TimeSpan.FromDays(1).TotalMicroseconds;

    /// <summary>Null for an empty sample: no row written during the load survived to be timed.</summary>
    public static FollowLagSummary? Of(IReadOnlyList<double> lagsMs)
    {
        if (lagsMs.Count == 0)
        {
            return null;
        }

        var histogram = new LongHistogram(HighestUs, 3);
        foreach (var lag in lagsMs)
        {
            // Clamped, never skipped: a lag below zero (clock granularity) is none; one past a day is a day.
            histogram.RecordValue(Math.Clamp((long)Math.Round(lag * 1000), 0, HighestUs));
        }

        static double Ms(long us) => us / 1000.0;
        return new FollowLagSummary((int)histogram.TotalCount, Ms(histogram.GetValueAtPercentile(50)), Ms(histogram.GetValueAtPercentile(95)),
            Ms(histogram.GetValueAtPercentile(99)), Ms(histogram.GetMaxValue()));
    }
}
