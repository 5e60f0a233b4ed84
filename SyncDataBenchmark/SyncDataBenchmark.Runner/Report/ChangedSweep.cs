using System.Globalization;
using Perfolizer.Mathematics.Common;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>One case's median time at one changed share, over its timed runs (fewer than --repeat when the session was stopped).</summary>
public sealed record ChangedPoint(string Changed, double Share, double? MedianMs, double? BestMs, int TimedRuns)
{
    /// <summary>The successful timed runs' times the median is of: what the test compares.</summary>
    public IReadOnlyList<double> Durations { get; init; } = [];
}

/// <summary>One case across the changed shares: a merge, a reload (the baseline) or a peer.</summary>
public sealed record ChangedSeries(string Label, string Kind, string? Library, string Split, IReadOnlyList<ChangedPoint> Points)
{
    /// <summary>The TestCase number (peers: none), for the tables' order.</summary>
    public int? Number { get; init; }

    public static class Kinds
    {
        public const string Merge = "merge";
        public const string Reload = "reload";
        public const string Peer = "peer";
    }
}

/// <summary>Per library (and table): from which changed share its fastest reload beats its fastest merge, in words.</summary>
public sealed record Crossover(string Library, string Split, double? Share, string Text);

/// <summary>
/// --changed, derived from the headline summary (main profile, first link): each case's median time at every share,
/// and per library the share at which reloading everything beats merging the changes (the crossover). Medians, since
/// the issue's goal is stated on them; the fastest merge and reload of a library at each share are compared.
/// </summary>
public sealed record ChangedSweep(IReadOnlyList<string> Shares, IReadOnlyList<ChangedSeries> Series, IReadOnlyList<Crossover> Crossovers)
{
    public static ChangedSweep? Build(BenchParameters parameters, IReadOnlyList<SummaryRow> summary)
    {
        if (parameters.Changed is not { } shares)
        {
            return null;
        }

        var series = summary.Where(r => r.MainProfile && r.Dimensions.TryGetValue("Changed", out var c) && c.Length > 0)
            .GroupBy(r => (Split: SplitWithout(r), Label: LabelWithout(r)))
            .Select(g => new ChangedSeries(g.Key.Label, KindOf(g.First()), g.First().Kind == SummaryRow.Kinds.Combination ? WriterLibrary.Of(g.First().Insert) : null, g.Key.Split,
                g.OrderBy(r => ShareOf(r)).Select(r => new ChangedPoint(r.Dimensions["Changed"], ShareOf(r), r.MedianMs, r.BestMs, r.TimedRuns) { Durations = r.Durations }).ToList()) { Number = g.First().Number })
            .ToList();
        var crossovers = series.Where(s => s.Library is not null).GroupBy(s => (s.Library!, s.Split))
            .Select(g => CrossoverOf(g.Key.Item1, g.Key.Split, g.ToList())).OfType<Crossover>().ToList();
        return new ChangedSweep(shares, series, crossovers);
    }

    /// <summary>
    /// The fastest merge and fastest reload (by median) at each share, and from which share the reload is no longer
    /// slower: the test decides at each share (RunStatistics.Compare), the medians place the crossing between the two
    /// shares that bracket it (interpolated on log scales). Below five runs a side at any share nothing is called: "too
    /// few runs to compare", the medians listed.
    /// </summary>
    private static Crossover? CrossoverOf(string library, string split, List<ChangedSeries> series)
    {
        var points = series.SelectMany(s => s.Points.Select(p => (s.Kind, p))).Where(x => x.p.MedianMs is not null)
            .GroupBy(x => x.p.Share).OrderBy(g => g.Key)
            .Select(g => (Share: g.Key, Label: g.First().p.Changed,
                Merge: g.Where(x => x.Kind == ChangedSeries.Kinds.Merge).Select(x => x.p).MinBy(p => p.MedianMs),
                Reload: g.Where(x => x.Kind == ChangedSeries.Kinds.Reload).Select(x => x.p).MinBy(p => p.MedianMs)))
            .Where(x => x.Merge is not null && x.Reload is not null).Select(x => new SharePair(x.Share, x.Label, x.Merge!, x.Reload!)).ToList();
        if (points.Count == 0)
        {
            return null;
        }

        if (points.Any(p => p.Merge.Durations.Count < RunStatistics.MinTestRuns || p.Reload.Durations.Count < RunStatistics.MinTestRuns))
        {
            return new Crossover(library, split, null,
                $"{RunStatistics.TooFewRuns} (fewer than {RunStatistics.MinTestRuns} runs a side; the medians: {string.Join("; ", points.Select(p => p.Text))})");
        }

        var flip = points.FindIndex(p => p.Test != ComparisonResult.Greater);
        if (flip < 0)
        {
            return new Crossover(library, split, null, $"merging stays faster at every share measured ({string.Join("; ", points.Select(p => p.Text))})");
        }

        if (flip == 0)
        {
            return new Crossover(library, split, points[0].Share, $"reloading is already as fast at the smallest share measured ({points[0].Text})");
        }

        var verb = points[flip].Test == ComparisonResult.Lesser ? "beats" : "is as fast as";
        var (before, after) = (points[flip - 1], points[flip]);
        var (r1, r2) = (Math.Log(before.Merge.MedianMs!.Value / before.Reload.MedianMs!.Value), Math.Log(after.Merge.MedianMs!.Value / after.Reload.MedianMs!.Value));
        // Told apart no more while the medians have not crossed yet: the crossing is at that share, not between.
        var share = r2 <= 0 ? after.Share : Math.Exp(Math.Log(before.Share) + (0 - r1) / (r2 - r1) * (Math.Log(after.Share) - Math.Log(before.Share)));
        return new Crossover(library, split, share,
            $"reloading {verb} merging from about {ChangedShare.Format(Math.Round(share, 4))} (between {before.Label} and {after.Label}, interpolated on log scales; {before.Text}; {after.Text})");
    }

    /// <summary>A share's fastest merge and fastest reload, and what the test says of the reload against the merge.</summary>
    private sealed record SharePair(double Share, string Label, ChangedPoint Merge, ChangedPoint Reload)
    {
        public ComparisonResult Test => RunStatistics.Compare(Reload.Durations, Merge.Durations);
        public string Text => Invariant($"{Label}: merge {Merge.MedianMs:N0} ms, reload {Reload.MedianMs:N0} ms");
    }

    private static string KindOf(SummaryRow row) =>
        row.Kind == SummaryRow.Kinds.Peer ? ChangedSeries.Kinds.Peer
        : CaseNumbers.Approaches.TryParseInsert(row.Insert, out var insert) && CaseNumbers.Approaches[insert].Merges ? ChangedSeries.Kinds.Merge
        : ChangedSeries.Kinds.Reload;

    private static double ShareOf(SummaryRow row) => ChangedShare.Parse(row.Dimensions["Changed"]) ?? 0;

    private static string LabelWithout(SummaryRow row) => row.Label.Replace($" [{row.Dimensions["Changed"]}]", "", StringComparison.Ordinal);

    private static string SplitWithout(SummaryRow row) => row.Split.Replace("-" + row.Dimensions["Changed"], "", StringComparison.Ordinal);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
