using System.Globalization;
using System.Text;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One case against one psql pipe at one size: the ratio of their median times (target statements, the scope both
/// share) and how sure it is — a 95% percentile-bootstrap interval; null with fewer than two runs on a side.
/// </summary>
public sealed record FloorRatio(string Title, string Profile, bool MainProfile, long Rows, string Peer, double MedianMs, int Runs, double PeerMedianMs, int PeerRuns, double Ratio, double? Low, double? High);

/// <summary>
/// results.md's "Against the psql pipes" section. The headline's ratio is best against best; this one is median
/// against median at every size, with an interval, because on a shared machine five runs a side can spread more
/// than the differences a reader wants to judge (README, "The COPY paths at every size"). Derived from the record's
/// runs at render time, so an older record gets it too.
/// </summary>
public static class FloorRatios
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;
    /// <summary>The pipes measured at the target's statements, as the combinations are: the floors a COPY path is held to.</summary>
    public static readonly IReadOnlyList<string> Floors = [PeerDefinition.PsqlBinaryKey, PeerDefinition.PsqlBinaryTunedKey];
    public const int Resamples = 2000;
    // Fixed: the same record always renders the same interval.
    private const int Seed = 27;

    /// <summary>Every main-link combination (each profile) against each floor that ran, at every size both ran at.</summary>
    public static List<FloorRatio> Build(BenchReport report)
    {
        var link = report.Parameters.Links[0].Name;
        var mainProfile = MainProfile(report);
        var ratios = new List<FloorRatio>();
        foreach (var floor in Floors)
        {
            var peerBySize = report.Peers.Where(p => p.Peer == floor && p.Link == link && !p.Warmup && p.Ok && p.Scope == PeerScopes.TargetStatements)
                .GroupBy(p => p.SourceRows ?? report.Parameters.Rows)
                .ToDictionary(g => g.Key, g => g.Select(p => p.DurationMs!.Value).ToList());
            var cases = report.Runs.Where(r => r.Link == link && !r.Warmup && r.Ok)
                .GroupBy(r => (r.Case, r.Profile, Rows: r.SourceRows ?? report.Parameters.Rows))
                .Where(g => peerBySize.ContainsKey(g.Key.Rows))
                .OrderBy(g => g.First().Number).ThenBy(g => g.Key.Profile != mainProfile).ThenBy(g => g.Key.Rows);
            foreach (var g in cases)
            {
                var first = g.First();
                // Combination.Label's form, from the names the record holds (an older record's approach may be gone from the enums).
                ratios.Add(Compare($"#{first.Number} {first.Fetch} × {first.Insert}" + (first.Compression == SyncData.Shared.BodyCompression.None ? "" : $" [{first.Compression}]"),
                    g.Key.Profile, g.Key.Profile == mainProfile, g.Key.Rows, floor,
                    g.Select(r => r.Result!.DurationMs!.Value).ToList(), peerBySize[g.Key.Rows]));
            }
        }

        return ratios;
    }

    private static string MainProfile(BenchReport report) => report.Parameters.Profiles.FirstOrDefault(p => p.Main)?.Name ?? SyncData.Harness.RuntimeProfiles.DefaultName;

    public static FloorRatio Compare(string title, string profile, bool main, long rows, string peer, IReadOnlyList<double> caseMs, IReadOnlyList<double> peerMs)
    {
        var median = Summaries.Median(caseMs)!.Value;
        var peerMedian = Summaries.Median(peerMs)!.Value;
        var interval = Interval(caseMs, peerMs);
        return new FloorRatio(title, profile, main, rows, peer, median, caseMs.Count, peerMedian, peerMs.Count, median / peerMedian, interval?.Low, interval?.High);
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

        return Summaries.Median(buffer)!.Value;
    }

    public static void Render(StringBuilder md, BenchReport report)
    {
        var ratios = Build(report);
        if (ratios.Count == 0)
        {
            return;
        }

        var sizes = ratios.Select(r => r.Rows).Distinct().Order().ToList();
        md.AppendLine().AppendLine("## Against the psql pipes, at every size").AppendLine();
        md.AppendLine("Each case's median time over its successful timed runs, and its ratio to the pipe's median at the same size and scope " +
                      "(target statements), on the first link. In brackets a 95% interval for that ratio: percentile bootstrap, " +
                      $"{Resamples.ToString("N0", Invariant)} resamples of each side's timed runs (a fixed seed: the same record always gives the same interval); " +
                      "none with fewer than two runs a side. Where an interval holds a line you care about (1.0×, 1.1×), these runs do not tell the case from that line.");
        foreach (var floor in Floors.Where(f => ratios.Any(r => r.Peer == f)))
        {
            var mine = ratios.Where(r => r.Peer == floor).ToList();
            md.AppendLine().AppendLine($"### Against {PeerDefinition.Find(floor)!.Name}").AppendLine();
            string[] header = ["Case", .. sizes.Select(s => s.ToString("N0", Invariant) + " rows")];
            md.AppendLine("| " + string.Join(" | ", header) + " |");
            md.AppendLine("|" + string.Concat(header.Select(_ => " --- |")));
            foreach (var row in mine.GroupBy(r => (r.Title, r.Profile)))
            {
                var title = row.Key.Title + (row.First().MainProfile ? "" : $" [{row.Key.Profile}]");
                md.AppendLine($"| {title} | " + string.Join(" | ", sizes.Select(s => row.FirstOrDefault(r => r.Rows == s) is { } r ? Cell(r) : "—")) + " |");
            }

            md.AppendLine($"| peer: {PeerDefinition.Find(floor)!.Name}, its median | " + string.Join(" | ", sizes.Select(s => mine.FirstOrDefault(r => r.Rows == s) is { } r
                ? $"{MarkdownReport.Ms(r.PeerMedianMs)} (n = {r.PeerRuns})" : "—")) + " |");
        }
    }

    private static string Cell(FloorRatio r) =>
        $"{MarkdownReport.Ms(r.MedianMs)}: {Times(r.Ratio)}" + (r.Low is { } low && r.High is { } high ? $" [{Times(low)}–{Times(high)}]" : "") + $" (n = {r.Runs})";

    private static string Times(double ratio) => ratio.ToString("0.00", Invariant) + "×";
}
