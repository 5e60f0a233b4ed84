namespace SyncDataBenchmark.Runner.Report;

/// <summary>How one case's cost grows with rows: its summary figures at every size and the exponents fitted through them.</summary>
public sealed record CaseGrowth
{
    /// <summary>One size the case ran at successfully, and its summary row there.</summary>
    public sealed record Point(long Rows, SummaryRow Summary);

    /// <summary>A size the case was not run at, because its predicted run time was past --max-run-seconds.</summary>
    public sealed record Skip(long Rows, double PredictedMs, string Reason);

    public required string Kind { get; init; }
    public required string Case { get; init; }
    public int? Number { get; init; }
    public required string Title { get; init; }
    public required string Profile { get; init; }
    public required bool MainProfile { get; init; }
    /// <summary>The summary the case belongs to (SummaryRow.Split): growth{split}.png.</summary>
    public string Split { get; init; } = "";
    public required IReadOnlyList<Point> Points { get; init; }
    /// <summary>Best time against rows; null with fewer than two measured sizes.</summary>
    public GrowthExponent? Time { get; init; }
    public GrowthExponent? SomeServiceWorkingSet { get; init; }
    public GrowthExponent? SyncDataSourceWorkingSet { get; init; }
    public required IReadOnlyList<Skip> Skipped { get; init; }

    /// <summary>Per case (and profile), the points of every size it ran at and the fitted exponents.</summary>
    public static List<CaseGrowth> Build(IReadOnlyList<(long Rows, IReadOnlyList<SummaryRow> Summary)> bySize, IReadOnlyList<SkippedCase> skipped) =>
        bySize.SelectMany(s => s.Summary).Select(r => (r.Case, r.Profile)).Distinct()
            .Select(c => Of(bySize.Select(s => (s.Rows, Row: s.Summary.FirstOrDefault(r => r.Case == c.Case && r.Profile == c.Profile)))
                    .Where(s => s.Row is not null).Select(s => (s.Rows, s.Row!)).ToList(),
                skipped.Where(s => s.Case == c.Case && s.Profile == c.Profile)))
            .ToList();

    private static CaseGrowth Of(List<(long Rows, SummaryRow Row)> sizes, IEnumerable<SkippedCase> skipped)
    {
        var first = sizes[0].Row;
        var points = sizes.Where(s => s.Row.Succeeded > 0).Select(s => new Point(s.Rows, s.Row)).ToList();
        GrowthExponent? FitOf(Func<SummaryRow, double?> y) => Growth.Fit(points.Where(p => y(p.Summary) is not null).Select(p => ((double)p.Rows, y(p.Summary)!.Value)));
        return new CaseGrowth
        {
            Kind = first.Kind,
            Case = first.Case,
            Number = first.Number,
            Title = first.ProfiledLabel,
            Profile = first.Profile,
            MainProfile = first.MainProfile,
            Split = first.Split,
            Points = points,
            Time = FitOf(r => r.BestMs),
            SomeServiceWorkingSet = FitOf(r => r.SomeService?.PeakWorkingSetBytes),
            SyncDataSourceWorkingSet = FitOf(r => r.SyncDataSource?.PeakWorkingSetBytes),
            Skipped = skipped.Select(s => new Skip(s.Rows, Math.Round(s.PredictedMs), s.Reason)).ToList(),
        };
    }
}
