using System.Text;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.md's "Generated row classes against written ones": each case that moved both a built-in table (users) and its
/// catalog view (public.users, <see cref="SyncTable.CatalogViewOf"/>) in the session, generated over written, at every
/// size and profile both ran at. Derived from the record's runs at render time.
/// </summary>
public static class RowClassRatios
{
    public static List<RowClassRatio> Build(ReportTables tables) =>
        tables.BySize.SelectMany(size => size.Summary
                .Where(r => r is { Kind: SummaryRow.Kinds.Combination, Succeeded: > 0 } && SyncTable.FindCatalogView(TableOf(r)) is not null)
                .Select(view => (view, written: size.Summary.FirstOrDefault(w => IsWrittenTwin(w, view))))
                .Where(x => x.written is not null)
                .Select(x => Compare(x.view, x.written!, size.Rows)))
            .OrderBy(r => r.Table, StringComparer.Ordinal).ThenBy(r => r.Case, StringComparer.Ordinal).ThenBy(r => r.Rows)
            .ToList();

    public static void Append(StringBuilder md, ReportTables tables)
    {
        var ratios = Build(tables);
        if (ratios.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Generated row classes against written ones").AppendLine();
        md.AppendLine("The same rows moved twice in one session: through the lab's written classes (users, orders) and as the lab moves a table it has no " +
                      "classes for (public.users, public.orders: each service describes it from its catalog, SomeService writes it through row classes it " +
                      "generates from that description, SyncDataSource reads it for the typed fetches likewise (the EF fetches through an entity it generates, " +
                      "ArrowStream in a schema it derives, GrpcStream in messages of a .proto it generates), and both sides verify " +
                      "it by a checksum over every column's binary form, outside the timed part). " +
                      $"Each ratio is median over median, with its 95% interval as the headline's (none with fewer than {RunStatistics.MinIntervalRuns} runs a side); " +
                      $"the goal is {ReportFormat.Times(RowClassRatio.Goal)}, in time and in each service's allocation (medians' ratio, not tested).");
        md.AppendLine();
        MarkdownTable.Append(md,
        [
            new("Case", r => r.Case),
            new("Table", r => r.Table),
            new("Rows", r => ReportFormat.Rows(r.Rows), Numeric: true),
            new("Written classes", r => $"{ReportFormat.Ms(r.WrittenMs)} (n = {r.WrittenRuns})", Numeric: true),
            new("Generated classes", r => $"{ReportFormat.Ms(r.GeneratedMs)} (n = {r.GeneratedRuns})", Numeric: true),
            new("Generated / written", r => ReportFormat.Times(r.Ratio) + (r.Interval is { } i ? $" [{ReportFormat.Times(i.Lower)}–{ReportFormat.Times(i.Upper)}]" : ""), Numeric: true),
            new($"Against {ReportFormat.Times(RowClassRatio.Goal)}", r => r.Verdict),
            new($"Test (Mann-Whitney, {RunStatistics.TieThreshold}, α = {RunStatistics.Alpha})", r => r.TestVerdict),
            new("Allocated, generated / written (SomeService; SyncDataSource)", r => $"{Times(r.SomeServiceAllocated)}; {Times(r.SyncDataSourceAllocated)}", Numeric: true),
        ], ratios);
    }

    private static string TableOf(SummaryRow row) => row.Dimensions.GetValueOrDefault("Table", SyncTable.Default.Name);

    /// <summary>The same case, profile and other dimensions as <paramref name="view"/>'s row, on the built-in table behind its view.</summary>
    private static bool IsWrittenTwin(SummaryRow row, SummaryRow view) =>
        row is { Kind: SummaryRow.Kinds.Combination, Succeeded: > 0 } && row.Number == view.Number && row.Profile == view.Profile
        && TableOf(row) == SyncTable.FindCatalogView(TableOf(view))!.Behind!.Name
        && row.Dimensions.Where(d => d.Key != "Table").All(d => view.Dimensions.GetValueOrDefault(d.Key) == d.Value);

    private static RowClassRatio Compare(SummaryRow view, SummaryRow written, long rows) =>
        new(written.ProfiledLabel, TableOf(written), rows,
            written.MedianMs!.Value, written.Succeeded, view.MedianMs!.Value, view.Succeeded, RunStatistics.Ratio(view.Durations, written.Durations),
            RunStatistics.Compare(view.Durations, written.Durations),
            AllocatedRatio(view.SomeService, written.SomeService), AllocatedRatio(view.SyncDataSource, written.SyncDataSource));

    private static double? AllocatedRatio(ServiceMedians? generated, ServiceMedians? written) =>
        generated?.ShownAllocatedBytes is { } g && written?.ShownAllocatedBytes is { } w && w > 0 ? (double)g / w : null;

    private static string Times(double? ratio) => ratio is { } r ? ReportFormat.Times(r) : ReportFormat.None;
}
