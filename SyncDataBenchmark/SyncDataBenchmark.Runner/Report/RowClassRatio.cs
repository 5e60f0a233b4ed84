using Perfolizer.Mathematics.Common;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One case moving a built-in table through row classes generated from its catalog (public.users) against the same case
/// moving it through the lab's written classes (users), in the same session at one size: their medians and the ratio's
/// 95% interval (<see cref="RunStatistics.Ratio"/>; null with fewer than five runs a side).
/// </summary>
/// <param name="Test">Generated against written by the lab's test (<see cref="RunStatistics.Compare"/>: Mann-Whitney, past a 3% threshold): a difference is called only where it says so.</param>
/// <param name="SomeServiceAllocated">SomeService's allocation median, generated over written (null where either has none).</param>
/// <param name="SyncDataSourceAllocated">SyncDataSource's likewise.</param>
public sealed record RowClassRatio(string Case, string Table, long Rows, double WrittenMs, int WrittenRuns, double GeneratedMs, int GeneratedRuns, MedianRatio? Interval,
    ComparisonResult Test = ComparisonResult.Unknown, double? SomeServiceAllocated = null, double? SyncDataSourceAllocated = null)
{
    /// <summary>The goal issue 63 sets before the written classes go: generated within 1.03× of written, in time and allocation.</summary>
    public const double Goal = 1.03;

    public double Ratio => GeneratedMs / WrittenMs;

    /// <summary>What the test says: generated slower, faster, or not told apart from written.</summary>
    public string TestVerdict => Test switch
    {
        ComparisonResult.Greater => "generated slower",
        ComparisonResult.Lesser => "generated faster",
        ComparisonResult.Indistinguishable => $"no difference past {RunStatistics.TieThreshold} shown",
        _ => RunStatistics.TooFewRuns,
    };

    /// <summary>What the runs say of the goal: within it, beyond it, or not told apart from it (the interval holds it, or there is none).</summary>
    public string Verdict => Interval switch
    {
        null => $"no interval (fewer than {RunStatistics.MinIntervalRuns} runs a side, or a median's lower bound at zero)",
        { Upper: <= Goal } => $"within {ReportFormat.Times(Goal)}",
        { Lower: > Goal } => $"beyond {ReportFormat.Times(Goal)}",
        _ => $"not told apart from {ReportFormat.Times(Goal)}",
    };
}
