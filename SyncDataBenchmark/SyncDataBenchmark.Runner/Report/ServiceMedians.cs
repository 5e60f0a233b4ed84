using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>One service's figures over a case's successful timed runs: medians per run (the original summed over its runs).</summary>
/// <param name="AllocatedBytes">Median over the runs whose allocation figure is exact; null when none is.</param>
/// <param name="AllocatedRuns">How many runs <paramref name="AllocatedBytes"/> is the median of.</param>
/// <param name="Runs">How many runs the other medians are over.</param>
/// <param name="AllocatedBytesUnavailable">Why some or all runs have no allocation figure (ServiceFigures.AllocatedBytesUnavailable).</param>
/// <param name="Runtime">The runtime settings the service reported (the last run's).</param>
/// <param name="AllocationTickBytes">Median of the runs' tick sums (ServiceFigures.AllocationTickBytes); null when no run has one.</param>
/// <param name="AllocationTickRuns">How many runs <paramref name="AllocationTickBytes"/> is the median of.</param>
/// <param name="AllocationTickUnavailable">Why some or all runs have no tick sum.</param>
public sealed record ServiceMedians(
    double? AllocatedBytes,
    double PeakWorkingSetBytes,
    double GcGen0,
    double GcGen1,
    double GcGen2,
    double GcPauseMs,
    int AllocatedRuns,
    int Runs,
    string? AllocatedBytesUnavailable,
    RuntimeSettings? Runtime,
    double CpuTimeMs,
    double? AllocationTickBytes,
    int AllocationTickRuns,
    string? AllocationTickUnavailable,
    double? JitTimeMs)
{
    /// <summary>
    /// The figure the tables show: GC.GetTotalAllocatedBytes's median when every run has it, else the tick sums'
    /// median (<see cref="FromTicks"/>), else the partial exact median; null when no run has either.
    /// </summary>
    public double? ShownAllocatedBytes => FromTicks ? AllocationTickBytes : AllocatedBytes;

    /// <summary>The shown allocation is the tick sums' (GetTotalAllocatedBytes is missing in some run and the ticks cover more runs).</summary>
    public bool FromTicks => AllocatedRuns < Runs && AllocationTickRuns > AllocatedRuns;

    /// <summary>The medians of one service's figures over runs; null when no run has them.</summary>
    public static ServiceMedians? Of(IEnumerable<ServiceFigures?> figures)
    {
        var list = figures.OfType<ServiceFigures>().ToList();
        if (list.Count == 0)
        {
            return null;
        }

        double M(Func<ServiceFigures, double> pick) => Statistics.Median(list.Select(pick).ToList())!.Value;
        // A run without a figure is left out of its median, never read as zero.
        List<double> Having(Func<ServiceFigures, double?> pick) => list.Select(pick).OfType<double>().ToList();
        var exact = Having(f => f.AllocatedBytes);
        var ticked = Having(f => f.AllocationTickBytes);
        return new ServiceMedians(Statistics.Median(exact), M(f => f.PeakWorkingSetBytes), M(f => f.GcGen0), M(f => f.GcGen1), M(f => f.GcGen2), M(f => f.GcPauseMs),
            AllocatedRuns: exact.Count,
            Runs: list.Count,
            AllocatedBytesUnavailable: Reasons(list.Select(f => f.AllocatedBytesUnavailable)),
            Runtime: list[^1].Runtime,
            CpuTimeMs: M(f => f.CpuTimeMs),
            AllocationTickBytes: Statistics.Median(ticked),
            AllocationTickRuns: ticked.Count,
            AllocationTickUnavailable: Reasons(list.Select(f => f.AllocationTickUnavailable)),
            JitTimeMs: Statistics.Median(Having(f => f.JitTimeMs)));
    }

    private static string? Reasons(IEnumerable<string?> reasons) =>
        reasons.OfType<string>().Distinct().ToList() is { Count: > 0 } distinct ? string.Join(" / ", distinct) : null;
}
