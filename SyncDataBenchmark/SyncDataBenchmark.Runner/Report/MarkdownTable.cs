using System.Text;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>A table of results.md from its columns and rows, and the notes that are its columns' legends.</summary>
public static class MarkdownTable
{
    public static void Append<TRow>(StringBuilder md, IReadOnlyList<ReportColumn<TRow>> columns, IEnumerable<TRow> rows)
    {
        md.AppendLine("| " + string.Join(" | ", columns.Select(c => c.Header)) + " |");
        md.AppendLine("|" + string.Concat(columns.Select(_ => " --- |")));
        foreach (var row in rows)
        {
            md.AppendLine("| " + string.Join(" | ", columns.Select(c => Escape(c.Cell(row)))) + " |");
        }
    }

    /// <summary>Each legend once, in the order of the columns it explains, one bullet per paragraph.</summary>
    public static void AppendLegends<TRow>(StringBuilder md, IEnumerable<ReportColumn<TRow>> columns)
    {
        md.AppendLine().AppendLine("Notes:").AppendLine();
        foreach (var legend in columns.SelectMany(c => c.Legend?.Split('\n') ?? []).Distinct())
        {
            md.AppendLine($"- {legend}");
        }
    }

    public static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal).Replace("\n", " ", StringComparison.Ordinal);
}
