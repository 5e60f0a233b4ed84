namespace SyncDataBenchmark.Runner;

/// <summary>
/// Durations as the console and the reports write them ("1h 05m", "4m 10s", "12s"). What a run will take is the
/// budget's (Budget.CostModel, Budget.RunBudget).
/// </summary>
public static class Estimator
{
    public static string Format(TimeSpan t) =>
        t.TotalHours >= 1 ? $"{(int)t.TotalHours}h {t.Minutes:D2}m" : t.TotalMinutes >= 1 ? $"{(int)t.TotalMinutes}m {t.Seconds:D2}s" : $"{t.TotalSeconds:F0}s";
}
