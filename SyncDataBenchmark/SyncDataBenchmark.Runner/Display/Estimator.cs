namespace SyncDataBenchmark.Runner;

/// <summary>
/// Remaining time from what each case actually took so far (its warm-up first), not from an average job: one
/// EFOffsetPaging × EFTypical run outweighs all the COPY runs together.
/// </summary>
public sealed class Estimator(Func<string, TimeSpan?>? prior = null)
{
    private readonly Dictionary<string, List<double>> _ms = [];

    public void Record(string key, TimeSpan elapsed)
    {
        if (!_ms.TryGetValue(key, out var list))
        {
            _ms[key] = list = [];
        }

        list.Add(elapsed.TotalMilliseconds);
    }

    public TimeSpan? Expected(string key) => _ms.TryGetValue(key, out var list) ? TimeSpan.FromMilliseconds(list.Average()) : prior?.Invoke(key);

    /// <summary>Sum over the jobs of their case's mean; Unknown counts jobs of cases never run yet.</summary>
    public (TimeSpan Known, int Unknown) Remaining(IEnumerable<PlanItem> jobs)
    {
        var expected = jobs.Select(job => Expected(job.Key)).ToList();
        return (expected.OfType<TimeSpan>().Aggregate(TimeSpan.Zero, (sum, t) => sum + t), expected.Count(t => t is null));
    }

    /// <summary>The estimate in words: "~4m 10s left", or a lower bound while some cases were never timed.</summary>
    public static string Describe(TimeSpan known, int unknown) =>
        unknown == 0 ? $"~{Format(known)} left"
        : known == TimeSpan.Zero ? "time left: known once each case has run"
        : $"≥{Format(known)} left (+{unknown} runs of cases not yet timed)";

    public static string Format(TimeSpan t) =>
        t.TotalHours >= 1 ? $"{(int)t.TotalHours}h {t.Minutes:D2}m" : t.TotalMinutes >= 1 ? $"{(int)t.TotalMinutes}m {t.Seconds:D2}s" : $"{t.TotalSeconds:F0}s";
}
