using System.Text;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>The sweep's table: best time per size and the exponents fitted on log–log (README, "How it scales").</summary>
public static class GrowthTable
{
    /// <summary>Case, one column per size, then the exponents; the console shows the columns without the sizes.</summary>
    public static IReadOnlyList<ReportColumn<CaseGrowth>> Columns(IReadOnlyList<long> sizes) =>
    [
        new("Case", g => g.Title),
        .. sizes.Select(size => new ReportColumn<CaseGrowth>(Rows(size) + " rows", g => AtSize(g, size), Numeric: true)),
        new("k time", g => Exponent(g.Time), Numeric: true),
        new("k peak WS SomeService", g => Exponent(g.SomeServiceWorkingSet), Numeric: true),
        new("k peak WS SyncDataSource", g => Exponent(g.SyncDataSourceWorkingSet), Numeric: true),
    ];

    public static void Append(StringBuilder md, ReportTables tables, bool charts)
    {
        var report = tables.Record;
        if (tables.Growth.Count == 0 && report.Skipped.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## How cost grows with rows").AppendLine();
        md.AppendLine("Best time per size; k is the exponent of a least-squares fit of log(best time) on log(rows) (1 = linear, 2 = quadratic), " +
                      "and of log(peak working set) on log(rows) per service (0 = flat). The number of sizes fitted is in brackets.").AppendLine();
        MarkdownTable.Append(md, Columns(report.Parameters.Sizes), tables.Growth);
        var cap = report.Parameters.MaxRunSeconds is { } seconds ? Number(seconds, "0") : None;
        MarkdownReport.AppendList(md, $"Skipped (predicted past --max-run-seconds {cap}, from the smaller sizes: time ∝ rows^k, k fitted but at least 1):",
            report.Skipped.Select(s => $"{MarkdownTable.Escape(s.Title)}: skipped at {Rows(s.Rows)} rows: {s.Reason}").ToList());
        if (charts)
        {
            md.AppendLine().AppendLine("![Time and peak working set against rows, log–log](growth.png)");
        }
    }

    /// <summary>"1.02 (3 sizes)", or none with fewer than two sizes.</summary>
    private static string Exponent(GrowthExponent? e) => e is null ? None : $"{Number(e.Exponent, "0.00")} ({e.Points} sizes)";

    private static string AtSize(CaseGrowth g, long size) =>
        g.Points.FirstOrDefault(x => x.Rows == size)?.Summary is { BestMs: { } best } row
            ? Ms(best) + (row.SomeService?.PeakWorkingSetBytes is { } ws ? $" ({Bytes(ws)} WS)" : "")
            : g.Skipped.FirstOrDefault(x => x.Rows == size) is { } skip ? $"skipped: predicted {Ms(skip.PredictedMs)}"
            : None;
}
