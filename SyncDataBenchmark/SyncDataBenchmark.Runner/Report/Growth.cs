using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>A fitted power law y ∝ rows^Exponent, and how many sizes it was fitted on.</summary>
public sealed record GrowthExponent(double Exponent, int Points);

/// <summary>One case at one size: medians over its successful timed runs there (Summaries' figures).</summary>
public sealed record GrowthPoint(
    long Rows,
    int Runs,
    double? BestMs,
    double? MedianMs,
    double? SomeServicePeakWorkingSetBytes,
    double? SyncDataSourcePeakWorkingSetBytes,
    double? SomeServiceAllocatedBytes,
    double? SyncDataSourceAllocatedBytes);

/// <summary>A size a case was not run at, because its predicted run time was past --max-run-seconds.</summary>
public sealed record GrowthSkip(long Rows, double PredictedMs, string Reason);

/// <summary>How one case's cost grows with rows: its points and the exponents fitted through them.</summary>
public sealed record CaseGrowth
{
    public required string Kind { get; init; }
    public required string Case { get; init; }
    public int? Number { get; init; }
    public required string Title { get; init; }
    public required string Profile { get; init; }
    public bool MainProfile { get; init; } = true;
    public required IReadOnlyList<GrowthPoint> Points { get; init; }
    /// <summary>Best time against rows; null with fewer than two measured sizes.</summary>
    public GrowthExponent? Time { get; init; }
    public GrowthExponent? SomeServiceWorkingSet { get; init; }
    public GrowthExponent? SyncDataSourceWorkingSet { get; init; }
    public IReadOnlyList<GrowthSkip> Skipped { get; init; } = [];
}

public static class Growth
{
    /// <summary>
    /// Least squares on log y against log x: the slope is the exponent k of y ∝ x^k. Points with a non-positive
    /// value are left out; fewer than two distinct sizes give no exponent (one size cannot tell a slope).
    /// </summary>
    public static GrowthExponent? Fit(IEnumerable<(double X, double Y)> points)
    {
        var logs = points.Where(p => p.X > 0 && p.Y > 0).Select(p => (X: Math.Log(p.X), Y: Math.Log(p.Y))).ToList();
        if (logs.Select(p => p.X).Distinct().Count() < 2)
        {
            return null;
        }

        var meanX = logs.Average(p => p.X);
        var meanY = logs.Average(p => p.Y);
        var sxy = logs.Sum(p => (p.X - meanX) * (p.Y - meanY));
        var sxx = logs.Sum(p => (p.X - meanX) * (p.X - meanX));
        return new GrowthExponent(Math.Round(sxy / sxx, 3), logs.Count);
    }

    /// <summary>
    /// A run's time at <paramref name="rows"/> from the times measured at smaller sizes: the largest measured point
    /// scaled by (rows / its rows)^k, k the fitted exponent but at least 1 — moving rows is never sublinear in the
    /// long run, and at small sizes fixed costs flatten the fit. Null when nothing was measured yet.
    /// </summary>
    public static double? PredictMs(IReadOnlyList<(long Rows, double Ms)> measured, long rows)
    {
        var usable = measured.Where(m => m.Ms > 0 && m.Rows > 0).ToList();
        if (usable.Count == 0)
        {
            return null;
        }

        var last = usable.MaxBy(m => m.Rows);
        var exponent = Math.Max(1, Fit(usable.Select(m => ((double)m.Rows, m.Ms)))?.Exponent ?? 1);
        return last.Ms * Math.Pow((double)rows / last.Rows, exponent);
    }

    /// <summary>Per case (and profile), the points of every size it ran at and the fitted exponents.</summary>
    public static List<CaseGrowth> Build(
        IReadOnlyList<long> sizes,
        Func<long, IReadOnlyList<CaseSummary>> summaryAt,
        IReadOnlyList<SkippedCase> skipped)
    {
        var bySize = sizes.Select(s => (Rows: s, Summary: summaryAt(s))).ToList();
        var cases = bySize.SelectMany(s => s.Summary)
            .Where(r => r.Kind is CaseSummary.Kinds.Combination or CaseSummary.Kinds.Peer)
            .Select(r => (r.Case, r.Profile))
            .Distinct()
            .ToList();
        var growth = new List<CaseGrowth>();
        foreach (var (key, profile) in cases)
        {
            var rows = bySize
                .Select(s => (s.Rows, Row: s.Summary.FirstOrDefault(r => r.Case == key && r.Profile == profile)))
                .Where(s => s.Row is not null)
                .ToList();
            var first = rows[0].Row!;
            var points = rows.Where(s => s.Row!.Succeeded > 0)
                .Select(s => new GrowthPoint(s.Rows, s.Row!.Succeeded, s.Row.BestMs, s.Row.MedianMs,
                    s.Row.SomeService?.PeakWorkingSetBytes, s.Row.SyncDataSource?.PeakWorkingSetBytes,
                    s.Row.SomeService?.ShownAllocatedBytes, s.Row.SyncDataSource?.ShownAllocatedBytes))
                .ToList();
            growth.Add(new CaseGrowth
            {
                Kind = first.Kind,
                Case = key,
                Number = first.Number,
                Title = first.Kind == CaseSummary.Kinds.Peer ? $"peer: {first.Title}" : $"#{first.Number} {first.Title}",
                Profile = profile,
                MainProfile = first.MainProfile,
                Points = points,
                Time = Fit(points.Where(p => p.BestMs is not null).Select(p => ((double)p.Rows, p.BestMs!.Value))),
                SomeServiceWorkingSet = Fit(points.Where(p => p.SomeServicePeakWorkingSetBytes is not null).Select(p => ((double)p.Rows, p.SomeServicePeakWorkingSetBytes!.Value))),
                SyncDataSourceWorkingSet = Fit(points.Where(p => p.SyncDataSourcePeakWorkingSetBytes is not null).Select(p => ((double)p.Rows, p.SyncDataSourcePeakWorkingSetBytes!.Value))),
                Skipped = skipped.Where(s => s.Case == key && s.Profile == profile)
                    .Select(s => new GrowthSkip(s.Rows, Math.Round(s.PredictedMs), s.Reason)).ToList(),
            });
        }

        return growth;
    }

    /// <summary>"k = 1.02 (3 sizes)" or "—".</summary>
    public static string Describe(GrowthExponent? e) =>
        e is null ? "—" : FormattableString.Invariant($"{e.Exponent:0.00} ({e.Points} sizes)");
}

/// <summary>A case the sweep did not run at a size, and why (it is listed, never dropped silently).</summary>
public sealed record SkippedCase(string Case, string Title, string Profile, long Rows, double PredictedMs, string Reason)
{
    /// <summary>The link the case was skipped across (--link).</summary>
    public string Link { get; init => field = value ?? NetworkLink.LoopbackName; } = NetworkLink.LoopbackName;
}
