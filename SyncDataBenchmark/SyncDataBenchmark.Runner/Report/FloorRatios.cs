using System.Text;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.md's "Against the psql pipes" section: median against median at every size, with the headline's interval
/// (RunStatistics.Ratio), against each psql pipe. Derived from the record's runs at render time.
/// </summary>
public static class FloorRatios
{
    /// <summary>The pipes measured at the target's statements, as the combinations are: the floors a COPY path is held to.</summary>
    public static readonly IReadOnlyList<string> Floors = [PeerDefinition.PsqlBinaryKey, PeerDefinition.PsqlBinaryTunedKey];

    /// <summary>Every first-link combination (each profile) against each floor of its own split (table) that ran, at every size both ran at.</summary>
    public static List<FloorRatio> Build(ReportTables tables) =>
        Floors.SelectMany(floor => tables.BySize
                .SelectMany(size => size.Summary.Where(r => r is { Kind: SummaryRow.Kinds.Combination, Succeeded: > 0 })
                    .Select(r => (size.Rows, Row: r, Floor: size.Summary.FirstOrDefault(f => f is { Succeeded: > 0, Scope: PeerScopes.TargetStatements } && f.Peer == floor && f.Split == r.Split))))
                .Where(x => x.Floor is not null)
                .OrderBy(x => x.Row.Split, StringComparer.Ordinal).ThenBy(x => x.Row.Number).ThenBy(x => !x.Row.MainProfile).ThenBy(x => x.Rows)
                .Select(x => Compare(x.Row.ProfiledLabel, x.Rows, floor, x.Row.Durations, x.Floor!.Durations) with { PeerLabel = x.Floor.Label }))
            .ToList();

    public static FloorRatio Compare(string title, long rows, string peer, IReadOnlyList<double> caseMs, IReadOnlyList<double> peerMs)
    {
        var median = Statistics.Median(caseMs)!.Value;
        var peerMedian = Statistics.Median(peerMs)!.Value;
        var interval = Interval(caseMs, peerMs);
        return new FloorRatio(title, rows, peer, median, caseMs.Count, peerMedian, peerMs.Count, median / peerMedian, interval?.Low, interval?.High);
    }

    /// <summary>The 95% interval of median(case) / median(peer), as the headline's (RunStatistics.Ratio); null with fewer than five runs a side.</summary>
    public static (double Low, double High)? Interval(IReadOnlyList<double> caseMs, IReadOnlyList<double> peerMs) =>
        RunStatistics.Ratio(caseMs, peerMs) is { } ratio ? (ratio.Lower, ratio.Upper) : null;

    public static void Append(StringBuilder md, ReportTables tables)
    {
        var ratios = Build(tables);
        if (ratios.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Against the psql pipes, at every size").AppendLine();
        md.AppendLine("Each case's median time over its successful timed runs, and its ratio to the pipe's median at the same size and scope " +
                      "(target statements), on the first link. In brackets a 95% interval for that ratio, as the headline's: each median's 97.5% interval " +
                      "(Harrell-Davis, Maritz-Jarrett; Perfolizer), the case's low end over the pipe's high end to its high end over the pipe's low end; " +
                      "none with fewer than five runs a side. Where an interval holds a line you care about (1.0×, 1.1×), these runs do not tell the case from that line.");
        // One row per case (and profile) and a last one for the pipe itself; a column per size.
        var sizes = ratios.Select(r => r.Rows).Distinct().Order().ToList();
        foreach (var floor in Floors.Where(f => ratios.Any(r => r.Peer == f)))
        {
            var mine = ratios.Where(r => r.Peer == floor).ToList();
            var name = PeerDefinition.Find(floor)!.Name;
            // Per split (table): its cases, then its own pipe's median.
            var rows = mine.GroupBy(r => r.PeerLabel).SelectMany(split => split.GroupBy(r => r.Title)
                .Select(g => (Case: g.Key, Cell: (Func<FloorRatio, string>)Cell, Ratios: g.ToList()))
                .Append(($"{split.Key}, its median", r => $"{ReportFormat.Ms(r.PeerMedianMs)} (n = {r.PeerRuns})", split.ToList())));
            md.AppendLine().AppendLine($"### Against {name}").AppendLine();
            MarkdownTable.Append(md,
            [
                new("Case", row => row.Case),
                .. sizes.Select(size => new ReportColumn<(string Case, Func<FloorRatio, string> Cell, List<FloorRatio> Ratios)>(ReportFormat.Rows(size) + " rows",
                    row => row.Ratios.FirstOrDefault(r => r.Rows == size) is { } r ? row.Cell(r) : ReportFormat.None, Numeric: true)),
            ], rows);
        }
    }

    private static string Cell(FloorRatio r) =>
        $"{ReportFormat.Ms(r.MedianMs)}: {ReportFormat.Times(r.Ratio)}" + (r.Low is { } low && r.High is { } high ? $" [{ReportFormat.Times(low)}–{ReportFormat.Times(high)}]" : "") + $" (n = {r.Runs})";
}
