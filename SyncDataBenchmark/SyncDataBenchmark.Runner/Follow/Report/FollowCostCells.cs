using SyncDataBenchmark.Runner.Report;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>The follow table's cost cells (FollowColumns): per change applied, the total in brackets; "—" where no .NET process takes part.</summary>
public static class FollowCostCells
{
    public const string Legend =
        "CPU/change and allocated/change are what each service spent from just before the load started until the target had caught up (the first copy is outside), "
        + "over the changes applied (the source table's inserted + updated + deleted rows over the run); the total in brackets. CPU is process time, user and system; "
        + "allocated is GC.GetTotalAllocatedBytes where exact, else the allocation tick sum, marked \"(tick sum)\" (within about 1% per window), as for sync runs. "
        + "NpgsqlReplication: one window in each service, opened and closed together (SomeService's /follow-window), so each service's idle background is in it. "
        + "The polled change log: the sum of its sync runs' own figures, each sync run's windows as in every sync run, so the time between polls and the baseline "
        + "collection before each run are not. Native subscription: \"—\", no .NET process takes part; PostgreSQL's walsender and apply worker are not measured.";

    public static string Cpu(FollowRun run, FollowServiceCost? cost, string? missing) =>
        Cell(run, cost, missing, c => $"{Number(c.CpuTimeMs * 1000 / run.SourceRowsWritten!.Value, "N1")} µs ({Ms(c.CpuTimeMs)})");

    public static string Allocated(FollowRun run, FollowServiceCost? cost, string? missing) =>
        Cell(run, cost, missing, c => c.ShownAllocatedBytes is { } bytes
            ? $"{Bytes((double)bytes / run.SourceRowsWritten!.Value)} ({Bytes(bytes)}){(c.AllocatedBytes is null ? " (tick sum)" : "")}"
            : $"n/a ({c.AllocatedBytesUnavailable ?? c.AllocationTickUnavailable})");

    private static string Cell(FollowRun run, FollowServiceCost? cost, string? missing, Func<FollowServiceCost, string> shown) =>
        missing == FollowCost.NoDotNet ? None
        : run.Cost is null ? "n/a"
        : cost is null ? $"n/a ({missing})"
        : run.SourceRowsWritten is > 0 ? shown(cost)
        : "n/a (no change applied)";
}
