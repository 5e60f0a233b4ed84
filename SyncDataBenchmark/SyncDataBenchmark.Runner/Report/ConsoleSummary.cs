using Spectre.Console;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>The closing tables on the console: the summary table's own columns (SummaryColumns), from the record alone.</summary>
public static class ConsoleSummary
{
    public static IReadOnlyList<ReportColumn<SummaryRow>> Columns(int repeat, bool narrow) => narrow ? Layouts(repeat)[^1] : Layouts(repeat)[0];

    /// <summary>
    /// The summary's column sets, widest first: the console prints the first whose rows fit its width unwrapped
    /// (results.md has every column). A row wrapped over four lines cannot be read down a column (issue 62).
    /// </summary>
    public static IReadOnlyList<IReadOnlyList<ReportColumn<SummaryRow>>> Layouts(int repeat) =>
    [
        [SummaryColumns.Case, SummaryColumns.Rank, SummaryColumns.Median, SummaryColumns.RatioToPsqlBinary, SummaryColumns.Runs, SummaryColumns.Best(repeat),
            SummaryColumns.RatioToFastest, SummaryColumns.Verified, SummaryColumns.Failures, SummaryColumns.Unsettled, SummaryColumns.Ties],
        [SummaryColumns.Case, SummaryColumns.Rank, SummaryColumns.Median, SummaryColumns.RatioToPsqlBinary, SummaryColumns.Runs, SummaryColumns.Verified, SummaryColumns.Failures],
        [SummaryColumns.Case, SummaryColumns.Median, SummaryColumns.RatioToPsqlBinary, SummaryColumns.Runs, SummaryColumns.Verified],
    ];

    public static void Show(BenchResults report, string outDirectory, string? pictureProblem) =>
        Show(AnsiConsole.Console, ReportTables.Of(report), outDirectory, pictureProblem);

    public static void Show(IAnsiConsole console, ReportTables tables, string outDirectory, string? pictureProblem)
    {
        var report = tables.Record;
        var width = console.Profile.Width;
        if (report.Parameters.Sizes.Count > 1)
        {
            console.MarkupLine($"At {report.Parameters.Rows:N0} rows (the largest size measured):");
        }

        // A row with a failure is red: the cells say which.
        console.Write(Fitted(Layouts(report.Parameters.Repeat), tables.Summary, width, r => r.Failures > 0 || r.WarmupFailed));
        foreach (var s in report.SkippedPeers)
        {
            console.MarkupLine($"[yellow]Skipped[/] {Markup.Escape($"{s.Title}: {s.Reason}")}");
        }

        if (tables.Growth.Count > 0)
        {
            console.MarkupLine("Growth with rows (cost ∝ rows^k; k fitted on log–log):");
            console.Write(Fitted([GrowthTable.Columns([])], tables.Growth, width, _ => false));
        }

        foreach (var s in report.Skipped)
        {
            console.MarkupLine($"[yellow]Skipped at {s.Rows:N0} rows:[/] {Markup.Escape($"{s.Title}: {s.Reason}")}");
        }

        if (pictureProblem is not null)
        {
            console.MarkupLine($"[red]The pictures failed:[/] {Markup.Escape(pictureProblem)}");
        }

        Closing(console, report, outDirectory);
    }

    /// <summary>--follow's closing table (results.md has its legends and the stages, cost and outage tables) and the same closing line.</summary>
    public static void ShowFollow(IAnsiConsole console, BenchResults report, string outDirectory)
    {
        console.MarkupLine($"{FollowTable.Title}:");
        console.Write(Fitted([FollowColumns.All, FollowColumns.Narrow], report.Follow ?? [], console.Profile.Width, r => !r.Verified || r.LeftBehind is not null));
        Closing(console, report, outDirectory);
    }

    /// <summary>One line: whether every run verified, and where the results are.</summary>
    private static void Closing(IAnsiConsole console, BenchResults report, string outDirectory)
    {
        var where = Markup.Escape(outDirectory);
        console.MarkupLine(report.Passed ? $"[green]Every run succeeded and verified.[/] Results in {where}"
            : !report.Complete ? $"[yellow]Stopped before every run finished.[/] What was measured is in {where}"
            : $"[red]Not every run succeeded and verified[/] (see results.md). Results in {where}");
    }

    /// <summary>The first of <paramref name="layouts"/> whose rows fit <paramref name="width"/> columns unwrapped (the headers wrap by word); else the last, borderless.</summary>
    private static Table Fitted<TRow>(IReadOnlyList<IReadOnlyList<ReportColumn<TRow>>> layouts, IReadOnlyList<TRow> rows, int width, Func<TRow, bool> failed)
    {
        // Each column as wide as its widest cell and its header, else its header's longest word (the header wraps); the
        // simple border adds a space either side of each.
        foreach (var (columns, wrapHeaders) in layouts.SelectMany(l => new[] { (l, false), (l, true) }))
        {
            var widths = columns.Select(c => rows.Select(r => c.Cell(r).Length).Append(wrapHeaders ? c.Header.Split(' ').Max(w => w.Length) : c.Header.Length).Max()).ToList();
            if (widths.Sum() + 3 * columns.Count + 1 <= width)
            {
                return Table(columns, rows, widths, TableBorder.Simple, failed);
            }
        }

        return Table(layouts[^1], rows, null, TableBorder.None, failed);
    }

    private static Table Table<TRow>(IReadOnlyList<ReportColumn<TRow>> columns, IEnumerable<TRow> rows, IReadOnlyList<int>? widths, TableBorder border, Func<TRow, bool> failed)
    {
        var table = new Table().Border(border);
        foreach (var (column, i) in columns.Select((c, i) => (c, i)))
        {
            table.AddColumn(new TableColumn(Markup.Escape(column.Header)) { Alignment = column.Numeric ? Justify.Right : Justify.Left, Width = widths?[i] });
        }

        foreach (var row in rows)
        {
            var style = failed(row) ? new Style(Color.Red) : Style.Plain;
            table.AddRow(columns.Select(c => new Text(c.Cell(row), style)).ToArray<Spectre.Console.Rendering.IRenderable>());
        }

        return table;
    }
}
