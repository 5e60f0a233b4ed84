namespace SyncDataBenchmark.Runner.Report;

/// <summary>Power laws fitted on log–log: how a cost grows with rows, and the time a run will take at a larger size.</summary>
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
}
