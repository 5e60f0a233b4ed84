using System.Text;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.md's "Against the psql pipes" section. The headline's ratio is best against best; this one is median
/// against median at every size, with an interval, because on a shared machine five runs a side can spread more
/// than the differences a reader wants to judge (README, "The COPY paths at every size"). Derived from the record's
/// runs at render time.
/// </summary>
public static class FloorRatios
{
    /// <summary>The pipes measured at the target's statements, as the combinations are: the floors a COPY path is held to.</summary>
    public static readonly IReadOnlyList<string> Floors = [PeerDefinition.PsqlBinaryKey, PeerDefinition.PsqlBinaryTunedKey];
    public const int Resamples = 2000;
    // Fixed: the same record always renders the same interval.
    private const int Seed = 27;

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

    /// <summary>
    /// 95% percentile bootstrap of median(case) / median(peer): each side's runs resampled with replacement,
    /// independently, <see cref="Resamples"/> times; the 2.5th and 97.5th percentiles of the ratios.
    /// </summary>
    public static (double Low, double High)? Interval(IReadOnlyList<double> caseMs, IReadOnlyList<double> peerMs)
    {
        if (caseMs.Count < 2 || peerMs.Count < 2)
        {
            return null;
        }

        var random = new Random(Seed);
        var ratios = new double[Resamples];
        var a = new double[caseMs.Count];
        var b = new double[peerMs.Count];
        for (var i = 0; i < Resamples; i++)
        {
            ratios[i] = ResampledMedian(caseMs, a, random) / ResampledMedian(peerMs, b, random);
        }

        Array.Sort(ratios);
        return (ratios[(int)Math.Floor(0.025 * (Resamples - 1))], ratios[(int)Math.Ceiling(0.975 * (Resamples - 1))]);
    }

    private static double ResampledMedian(IReadOnlyList<double> values, double[] buffer, Random random)
    {
        for (var i = 0; i < buffer.Length; i++)
        {
            buffer[i] = values[random.Next(values.Count)];
        }

        return Statistics.Median(buffer)!.Value;
    }

    public static void Append(StringBuilder md, ReportTables tables)
    {
        var ratios = Build(tables);
        if (ratios.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Against the psql pipes, at every size").AppendLine();
        md.AppendLine("Each case's median time over its successful timed runs, and its ratio to the pipe's median at the same size and scope " +
                      "(target statements), on the first link. In brackets a 95% interval for that ratio: percentile bootstrap, " +
                      $"{ReportFormat.Rows(Resamples)} resamples of each side's timed runs (a fixed seed: the same record always gives the same interval); " +
                      "none with fewer than two runs a side. Where an interval holds a line you care about (1.0×, 1.1×), these runs do not tell the case from that line.");
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
