namespace SyncDataBenchmark.Runner.Report;

/// <summary>The few statistics the tables use.</summary>
public static class Statistics
{
    public static double? Median(IReadOnlyCollection<double> values)
    {
        if (values.Count == 0)
        {
            return null;
        }

        var sorted = values.Order().ToArray();
        var mid = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /// <summary>The sample standard deviation; null with fewer than two values.</summary>
    public static double? StdDev(IReadOnlyCollection<double> values)
    {
        if (values.Count < 2)
        {
            return null;
        }

        var mean = values.Average();
        return Math.Sqrt(values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1));
    }
}
