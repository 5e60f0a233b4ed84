using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// What one service spent over a --follow run's load and catch-up, from its own measurement windows (ServiceFigures):
/// one follow window, or each sync run of the polled change log. Summed only where every window has the figure.
/// </summary>
/// <param name="CpuTimeMs">Process CPU time, user and system (RuntimeWindow: Environment.CpuUsage).</param>
/// <param name="AllocatedBytes">GC.GetTotalAllocatedBytes' difference, where every window has it exact; else null (<paramref name="AllocatedBytesUnavailable"/>).</param>
/// <param name="AllocationTickBytes">The allocation tick sum, where every window has it; else null (<paramref name="AllocationTickUnavailable"/>).</param>
/// <param name="AllocationTickPrecisionBytes">The sum of each window's stated precision (ServiceFigures.AllocationTickPrecision).</param>
/// <param name="Windows">How many windows: 1 for a follow window, the sync runs for the polled change log.</param>
public sealed record FollowServiceCost(
    double CpuTimeMs,
    long? AllocatedBytes,
    long? AllocationTickBytes,
    long AllocationTickPrecisionBytes,
    int Windows,
    string? AllocatedBytesUnavailable = null,
    string? AllocationTickUnavailable = null)
{
    /// <summary>The allocation shown: exact where every window has it, else the tick sum (docs/measuring.md).</summary>
    public long? ShownAllocatedBytes => AllocatedBytes ?? AllocationTickBytes;

    /// <summary>Both figures are there and stand within <see cref="AllocationTickPrecisionBytes"/> of each other; null without both.</summary>
    public bool? AllocationTicksAgree => AllocatedBytes is { } exact && AllocationTickBytes is { } ticked
        ? Math.Abs(ticked - exact) <= AllocationTickPrecisionBytes
        : null;

    /// <summary>The windows' figures added up; null when there is no window.</summary>
    public static FollowServiceCost? Of(IReadOnlyList<ServiceFigures> windows) => windows.Count == 0
        ? null
        : new FollowServiceCost(
            Math.Round(windows.Sum(w => w.CpuTimeMs), 1),
            windows.All(w => w.AllocatedBytes is not null) ? windows.Sum(w => w.AllocatedBytes!.Value) : null,
            windows.All(w => w.AllocationTickBytes is not null) ? windows.Sum(w => w.AllocationTickBytes!.Value) : null,
            windows.Sum(w => w.AllocationTickPrecision()),
            windows.Count,
            windows.Select(w => w.AllocatedBytesUnavailable).FirstOrDefault(w => w is not null),
            windows.Select(w => w.AllocationTickUnavailable).FirstOrDefault(w => w is not null));
}
