using System.Globalization;
using System.Text;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>results.md's "Across a link" section: one table per link (--link), what crossed it and its own limit.</summary>
public static class LinkTables
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public static void Render(StringBuilder md, BenchReport report, bool charts)
    {
        if (report.Links.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Across a link").AppendLine();
        md.AppendLine($"Each link at {report.Parameters.Rows.ToString("N0", Invariant)} rows. A shaped link is two network namespaces (source host, target host) " +
                      "joined by one veth pair shaped with tc tbf at its rate, no delay added; bytes are the veth's counters around each run (best run shown), " +
                      "and the link's floor is the busier direction's bytes ÷ its rate. Best and Median are at each case's scope (target statements, " +
                      "as in the headline table) while the bytes are counted around the whole request or command, so a time a little under the floor " +
                      "means part of the transfer happened before the target's clock started (into socket and pipe buffers). The headline table above is the first link's.");
        foreach (var link in report.Links)
        {
            md.AppendLine().AppendLine($"### {link.Link}" + (link.RateBitsPerSecond is { } rate ? $" ({Rate(rate)})" : " (one host)")).AppendLine();
            string[] header = ["Case", "Best", "Median", "Source → target", "Target → source", "Bytes per row", "Link floor", "Verified"];
            md.AppendLine("| " + string.Join(" | ", header) + " |");
            md.AppendLine("|" + string.Concat(header.Select(_ => " --- |")));
            foreach (var row in link.Cases.Where(r => r.MainProfile))
            {
                md.AppendLine("| " + string.Join(" | ", Cells(row, link.RateBitsPerSecond)) + " |");
            }
        }

        if (charts)
        {
            md.AppendLine().AppendLine("![Time against link rate, per case, with each link's floor](links.png)");
        }
    }

    private static IEnumerable<string> Cells(CaseSummary row, long? rate)
    {
        var t = row.Traffic;
        const string loopback = "n/a (loopback)";
        return
        [
            (row.Number is { } n ? $"#{n} " : "peer: ") + row.Title.Replace("|", "\\|", StringComparison.Ordinal),
            row.BestMs is { } best ? MarkdownReport.Ms(best) : row.TimedRuns == 0 ? "not run" : "no successful run",
            row.MedianMs is { } median ? MarkdownReport.Ms(median) : "—",
            rate is null ? loopback : t is null ? "—" : MarkdownReport.Bytes(t.SourceToTargetBytes),
            rate is null ? loopback : t is null ? "—" : MarkdownReport.Bytes(t.TargetToSourceBytes),
            rate is null ? loopback : t?.BytesPerRow is { } perRow ? perRow.ToString("0.#", Invariant) : "—",
            rate is { } r && t is not null ? MarkdownReport.Ms(FloorMs(t, r)) : rate is null ? loopback : "—",
            $"{row.Succeeded}/{row.TimedRuns}",
        ];
    }

    /// <summary>The least time the link allows: the busier direction's bytes at its rate (each direction has its own).</summary>
    public static double FloorMs(LinkTraffic traffic, long rateBitsPerSecond) =>
        Math.Max(traffic.SourceToTargetBytes, traffic.TargetToSourceBytes) * 8.0 / rateBitsPerSecond * 1000;

    private static string Rate(long bitsPerSecond) => bitsPerSecond >= 1_000_000_000
        ? (bitsPerSecond / 1e9).ToString("0.#", Invariant) + " Gbit/s"
        : (bitsPerSecond / 1e6).ToString("0.#", Invariant) + " Mbit/s";
}
