using SyncDataBenchmark.Runner.Report;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// The follow section's cost table (--follow): what the source's writers paid per transaction and what each .NET service
/// spent per change, each column declared once with its legend (as FollowColumns).
/// </summary>
public static class FollowCostColumns
{
    private const string WritersLegend =
        "Writers' transaction is what pgbench's writers paid per transaction, from its per-transaction log (-l): each transaction's time from its actual start "
        + "to its commit (the logged time minus its schedule lag under -R), median with its 95% interval (Harrell-Davis, Maritz-Jarrett; Perfolizer) and p99, over every "
        + "transaction of the run. Change log says whether the source table's change-log triggers (sql/change-tracking.sql) were on: only for the mechanism that reads "
        + "the log, read from the catalog once the load stopped (\"on (every run)\": a record from before this was chosen per mechanism); the others run with a publication and no trigger, so the column compares a trigger-kept log with a publication from the writers' side, on one "
        + "machine where the mechanism's own work (walsender, services, apply) competes for the same two cores.";

    public static IReadOnlyList<ReportColumn<FollowRun>> All { get; } =
    [
        new("Table", r => r.Table),
        new("Mechanism", r => r.Mechanism),
        new("Write rate (rows/s)", r => Rows(r.WriteRate), Numeric: true),
        new("Change log", r => r.ChangeLogTriggers switch { true => "on", false => "off", null when r.Writers is null => "on (every run)", null => "**partly on**" }, WritersLegend),
        new("Writers' transaction", r => r.Writers is { } w ? WriterMs(w.MedianMs) + (w.LowerMs is { } lo && w.UpperMs is { } hi ? $" [{WriterMs(lo)}–{WriterMs(hi)}]" : "") : "n/a", Numeric: true),
        new("Writers' p99", r => r.Writers is { } w ? WriterMs(w.P99Ms) : "n/a", Numeric: true),
        new("SomeService CPU/change (total)", r => FollowCostCells.Cpu(r, r.Cost?.SomeService, r.Cost?.SomeServiceMissing), FollowCostCells.Legend, Numeric: true),
        new("SomeService allocated/change (total)", r => FollowCostCells.Allocated(r, r.Cost?.SomeService, r.Cost?.SomeServiceMissing), Numeric: true),
        new("SyncDataSource CPU/change (total)", r => FollowCostCells.Cpu(r, r.Cost?.SyncDataSource, r.Cost?.SyncDataSourceMissing), Numeric: true),
        new("SyncDataSource allocated/change (total)", r => FollowCostCells.Allocated(r, r.Cost?.SyncDataSource, r.Cost?.SyncDataSourceMissing), Numeric: true),
    ];

    /// <summary>A writer's transaction takes a few ms or less: two decimals there, so the medians of two mechanisms can be told apart.</summary>
    private static string WriterMs(double ms) => ms < 10 ? ms.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture) + " ms" : ReportFormat.Ms(ms);
}
