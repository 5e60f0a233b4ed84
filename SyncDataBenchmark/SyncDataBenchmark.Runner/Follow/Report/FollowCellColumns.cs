using SyncDataBenchmark.Runner.Report;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// results.md's and README's follow summary (--follow): one row per table × write rate × mechanism, each figure the
/// median of its verified runs with the least and largest in brackets, each column declared once with its legend.
/// </summary>
public static class FollowCellColumns
{
    private const string SpreadLegend =
        "One row per table × write rate × mechanism over its repeats (--repeat; the runs went in an order drawn from the record's seed): runs verified of runs, then each "
        + "figure as the median of the verified runs with [least–largest]. Lag is commit-to-applied per timed change (the per-run table's legend says how), its "
        + "percentiles from an HdrHistogram of every timed change; timed is the changes timed of the changes the load wrote, summed over the runs (the rest are "
        + "deletes and overwritten versions, which leave no row to time: counted, not timed). Written/s is the rows the open-loop load (pgbench -R) achieved a second, "
        + "beside the rate asked; the mix is the achieved share of inserted, updated and deleted rows (the asked one is in the per-run table). Drain is the capacity: "
        + "a backlog written while the mechanism was stopped, applied from its restart until the target caught up, as rows/s; CPU/change is the whole system's CPU "
        + "over the drain per drained change (the services the mechanism uses and every process of the cluster, the native apply worker and walsenders included, from /proc).";

    public static IReadOnlyList<ReportColumn<FollowCell>> All { get; } =
    [
        new("Table", c => c.Table),
        new("Mechanism", c => c.Mechanism),
        new("Write rate (rows/s)", c => Rows(c.WriteRate), SpreadLegend, Numeric: true),
        new("Runs", c => $"{c.Verified.Count} of {c.Runs.Count}", Numeric: true),
        new("Lag p50", c => SpreadMs(c.Of(r => r.Lag?.P50Ms)), Numeric: true),
        new("Lag p99", c => SpreadMs(c.Of(r => r.Lag?.P99Ms)), Numeric: true),
        new("Timed", c => Timed(c.Verified), Numeric: true),
        new("Written/s", c => SpreadOf(c.Of(r => r.RowsWrittenPerSecond), "N0"), Numeric: true),
        new("Mix written", c => c.Verified.Where(r => r.MixAchieved is not null).Select(r => r.MixAchieved!).ToList() is { Count: > 0 } mixes
            ? new WriteMix(mixes.Sum(m => m.Inserted), mixes.Sum(m => m.Updated), mixes.Sum(m => m.Deleted)).Shares() : "n/a"),
        new("Drain (rows/s)", c => SpreadOf(c.Of(r => r.Drain?.RowsPerSecond), "N0"), Numeric: true),
        new("CPU/change (drain)", c => c.Of(r => r.Drain?.CpuPerChangeUs) is { } s ? $"{Number(s.Median, "N0")} µs [{Number(s.Min, "N0")}–{Number(s.Max, "N0")}]" : "n/a", Numeric: true),
    ];

    /// <summary>"N of M": the changes timed of those written, over runs that recorded both.</summary>
    public static string Timed(IEnumerable<FollowRun> runs) =>
        runs.Where(r => r.SourceRowsWritten is not null).ToList() is { Count: > 0 } counted
            ? $"{Rows(counted.Sum(r => (long)(r.Lag?.Count ?? 0)))} of {Rows(counted.Sum(r => r.SourceRowsWritten!.Value))}"
            : "n/a";

    private static string SpreadMs(FollowCell.Spread? s) => s is null ? "n/a" : $"{Ms(s.Median)} [{Ms(s.Min)}–{Ms(s.Max)}]";

    private static string SpreadOf(FollowCell.Spread? s, string format) => s is null ? "n/a" : $"{Number(s.Median, format)} [{Number(s.Min, format)}–{Number(s.Max, format)}]";
}
