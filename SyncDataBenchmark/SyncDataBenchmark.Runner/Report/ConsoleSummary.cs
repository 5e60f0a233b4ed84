using Spectre.Console;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>The closing tables on the console: the summary table's own columns (SummaryColumns), from the record alone.</summary>
public static class ConsoleSummary
{
    /// <summary>Below this many columns the tables keep only the columns a reader needs first (results.md has all).</summary>
    public const int NarrowWidth = 120;

    public static IReadOnlyList<ReportColumn<SummaryRow>> Columns(int repeat, bool narrow) => narrow
        ? [SummaryColumns.Case, SummaryColumns.Median, SummaryColumns.RatioToPsqlBinary, SummaryColumns.Runs, SummaryColumns.Verified]
        : [SummaryColumns.Case, SummaryColumns.Rank, SummaryColumns.Median, SummaryColumns.RatioToPsqlBinary, SummaryColumns.Runs, SummaryColumns.Best(repeat),
            SummaryColumns.RatioToFastest, SummaryColumns.Verified, SummaryColumns.Failures, SummaryColumns.Unsettled, SummaryColumns.Ties];

    public static void Show(BenchResults report, string outDirectory, string? pictureProblem) =>
        Show(AnsiConsole.Console, ReportTables.Of(report), outDirectory, pictureProblem);

    public static void Show(IAnsiConsole console, ReportTables tables, string outDirectory, string? pictureProblem)
    {
        var report = tables.Record;
        var narrow = console.Profile.Width < NarrowWidth;
        if (report.Parameters.Sizes.Count > 1)
        {
            console.MarkupLine($"At {report.Parameters.Rows:N0} rows (the largest size measured):");
        }

        // A row with a failure is red: the cells say which.
        console.Write(Table(Columns(report.Parameters.Repeat, narrow), tables.Summary, narrow, r => r.Failures > 0 || r.WarmupFailed));
        foreach (var s in report.SkippedPeers)
        {
            console.MarkupLine($"[yellow]Skipped[/] {Markup.Escape($"{s.Title}: {s.Reason}")}");
        }

        if (tables.Growth.Count > 0)
        {
            console.MarkupLine("Growth with rows (cost ∝ rows^k; k fitted on log–log):");
            console.Write(Table(GrowthTable.Columns([]), tables.Growth, narrow, _ => false));
        }

        foreach (var s in report.Skipped)
        {
            console.MarkupLine($"[yellow]Skipped at {s.Rows:N0} rows:[/] {Markup.Escape($"{s.Title}: {s.Reason}")}");
        }

        if (pictureProblem is not null)
        {
            console.MarkupLine($"[red]The pictures failed:[/] {Markup.Escape(pictureProblem)}");
        }

        var where = Markup.Escape(outDirectory);
        console.MarkupLine(report.Passed ? $"[green]Every run succeeded and verified.[/] Results in {where}"
            : !report.Complete ? $"[yellow]Stopped before every run finished.[/] What was measured is in {where}"
            : $"[red]Not every run succeeded and verified[/] (see results.md). Results in {where}");
    }

    private static Table Table<TRow>(IReadOnlyList<ReportColumn<TRow>> columns, IEnumerable<TRow> rows, bool narrow, Func<TRow, bool> failed)
    {
        var table = new Table().Border(narrow ? TableBorder.None : TableBorder.Simple);
        foreach (var column in columns)
        {
            table.AddColumn(new TableColumn(Markup.Escape(column.Header)) { Alignment = column.Numeric ? Justify.Right : Justify.Left });
        }

        foreach (var row in rows)
        {
            var style = failed(row) ? new Style(Color.Red) : Style.Plain;
            table.AddRow(columns.Select(c => new Text(c.Cell(row), style)).ToArray<Spectre.Console.Rendering.IRenderable>());
        }

        return table;
    }
}
