namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One case moving a built-in table through row classes generated from its catalog (public.users) against the same case
/// moving it through the lab's written classes (users), in the same session at one size: their medians and the ratio's
/// 95% interval (<see cref="RunStatistics.Ratio"/>; null with fewer than five runs a side).
/// </summary>
public sealed record RowClassRatio(string Case, string Table, long Rows, double WrittenMs, int WrittenRuns, double GeneratedMs, int GeneratedRuns, MedianRatio? Interval)
{
    /// <summary>The goal issue 49 sets: generated classes within 1.1× of written ones.</summary>
    public const double Goal = 1.1;

    public double Ratio => GeneratedMs / WrittenMs;

    /// <summary>What the runs say of the goal: within it, beyond it, or not told apart from it (the interval holds it, or there is none).</summary>
    public string Verdict => Interval switch
    {
        null => $"no interval (fewer than {RunStatistics.MinIntervalRuns} runs a side, or a median's lower bound at zero)",
        { Upper: <= Goal } => $"within {ReportFormat.Times(Goal)}",
        { Lower: > Goal } => $"beyond {ReportFormat.Times(Goal)}",
        _ => $"not told apart from {ReportFormat.Times(Goal)}",
    };
}
