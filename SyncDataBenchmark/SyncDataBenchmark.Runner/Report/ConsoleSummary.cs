using System.Globalization;
using Spectre.Console;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>The closing tables on the console, from the record alone.</summary>
public static class ConsoleSummary
{
    /// <summary>Below this many columns the tables keep only the columns a reader needs first (results.md has all).</summary>
    public const int NarrowWidth = 120;

    public static void Show(BenchReport report, string outDirectory, string? pictureProblem)
    {
        var narrow = AnsiConsole.Profile.Width < NarrowWidth;
        var table = new Table().Border(narrow ? TableBorder.None : TableBorder.Simple);
        table.AddColumns(narrow ? ["#", "Case", "Best", "Median", "×psql", "OK"] : ["#", "Case", "Rank", "Best", "Median", "× fastest", "× psql binary", "Verified", "Failures"]);
        foreach (var row in report.Summary)
        {
            var number = row.Number?.ToString(CultureInfo.InvariantCulture) ?? "peer";
            var title = Markup.Escape(row.Kind == CaseSummary.Kinds.Peer ? row.Title : $"{row.Title}{(row.MainProfile ? "" : $" [{row.Profile}]")}");
            var best = row.BestMs is { } b ? MarkdownReport.Ms(b) : "[red]none[/]";
            var median = row.MedianMs is { } m ? MarkdownReport.Ms(m) : "";
            var psql = row.RatioToPsqlBinary is { } rp ? $"{rp:0.00}" : "";
            var verified = row.Failures > 0 || row.WarmupFailed ? $"[red]{row.Succeeded}/{row.TimedRuns}[/]" : $"{row.Succeeded}/{row.TimedRuns}";
            if (narrow)
            {
                table.AddRow(number, title, best, median, psql, verified);
                continue;
            }

            table.AddRow(number, title, row.Rank?.ToString(CultureInfo.InvariantCulture) ?? "", best, median,
                row.RatioToFastest is { } rf ? $"{rf:0.00}" : "", psql, $"{row.Succeeded}/{row.TimedRuns}",
                row.Failures > 0 || row.WarmupFailed ? $"[red]{row.Failures}{(row.WarmupFailed ? " + warm-up" : "")}[/]" : "0");
        }

        if (report.Parameters.Sizes.Count > 1)
        {
            AnsiConsole.MarkupLine($"At {report.Parameters.Rows:N0} rows (the largest size measured):");
        }

        AnsiConsole.Write(table);
        foreach (var s in report.SkippedPeers)
        {
            AnsiConsole.MarkupLine($"[yellow]Skipped[/] {Markup.Escape($"{s.Title}: {s.Reason}")}");
        }

        ShowGrowth(report);
        if (pictureProblem is not null)
        {
            AnsiConsole.MarkupLine($"[red]The pictures failed:[/] {Markup.Escape(pictureProblem)}");
        }

        AnsiConsole.MarkupLine(report.Passed ? $"[green]Every run succeeded and verified.[/] Results in {Markup.Escape(outDirectory)}"
            : !report.Complete ? $"[yellow]Stopped before every run finished.[/] What was measured is in {Markup.Escape(outDirectory)}"
            : $"[red]Not every run succeeded and verified[/] (see results.md). Results in {Markup.Escape(outDirectory)}");
    }

    /// <summary>The exponents (results.md has the figures per size): k time, k peak working set per service.</summary>
    private static void ShowGrowth(BenchReport report)
    {
        if (report.Growth.Count == 0)
        {
            return;
        }

        AnsiConsole.MarkupLine("Growth with rows (cost ∝ rows^k; k fitted on log–log):");
        var table = new Table().Border(AnsiConsole.Profile.Width < NarrowWidth ? TableBorder.None : TableBorder.Simple)
            .AddColumns("Case", "k time", "k WS Some", "k WS Src");
        foreach (var g in report.Growth)
        {
            static string K(GrowthExponent? e) => e is null ? "—" : $"{e.Exponent:0.00} ({e.Points})";
            table.AddRow(Markup.Escape(g.Title + (g.MainProfile ? "" : $" [{g.Profile}]")), K(g.Time), K(g.SomeServiceWorkingSet), K(g.SyncDataSourceWorkingSet));
        }

        AnsiConsole.Write(table);
        foreach (var s in report.Skipped)
        {
            AnsiConsole.MarkupLine($"[yellow]Skipped at {s.Rows:N0} rows:[/] {Markup.Escape($"{s.Title}: {s.Reason}")}");
        }
    }
}
