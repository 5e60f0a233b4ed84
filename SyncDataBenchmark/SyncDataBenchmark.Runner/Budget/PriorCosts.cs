using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner.Budget;

/// <summary>
/// What each case's run took in earlier records (results.json under artifacts/ and --out), so a session can say what
/// it will cost before its first run: per case key under its profile (<see cref="PlanItem.Key"/>), the median request
/// time of its verified runs at each size, on loopback only (a shaped link's times are the link's).
/// </summary>
public sealed class PriorCosts(IReadOnlyDictionary<string, IReadOnlyList<(long Rows, double WallSeconds)>> byKey)
{
    public static PriorCosts None { get; } = new(new Dictionary<string, IReadOnlyList<(long, double)>>());

    /// <summary>How many case keys a prior is known for.</summary>
    public int Count => byKey.Count;

    /// <summary>The records found in <paramref name="folders"/> (each folder's results.json and its sub-folders'), read; unreadable ones are passed over.</summary>
    public static async Task<PriorCosts> ReadAsync(IEnumerable<string> folders, bool tmpfs)
    {
        var files = folders.Where(Directory.Exists).Distinct()
            .SelectMany(f => new[] { Path.Combine(f, ResultsFile.FileName) }.Concat(Directory.GetDirectories(f).Select(d => Path.Combine(d, ResultsFile.FileName))))
            .Where(File.Exists).Distinct().ToList();
        var records = new List<BenchResults>();
        foreach (var file in files)
        {
            try
            {
                records.Add(await ResultsFile.ReadAsync(file));
            }
            catch (Exception ex) when (ex is IOException or System.Text.Json.JsonException)
            {
                // An estimate's source only: a record that cannot be read gives none.
            }
        }

        return Of(records.Where(r => r.Parameters.Tmpfs == tmpfs));
    }

    /// <summary>The priors of <paramref name="records"/>: every verified run's request time (warm-ups too), per key and size.</summary>
    public static PriorCosts Of(IEnumerable<BenchResults> records)
    {
        var seconds = new List<(string Key, long Rows, double Seconds)>();
        foreach (var record in records)
        {
            var main = record.Parameters.Profiles.FirstOrDefault(p => p.Main)?.Name;
            seconds.AddRange(record.Runs.Where(r => r is { Ok: true, Link: NetworkLink.LoopbackName, SourceRows: not null })
                .Select(r => (KeyOf(CaseIdentity.Profiled(r.Case, r.Profile == main || r.Profile == BenchLab.ExternalProfile ? null : r.Profile), r.Warmup), r.SourceRows!.Value, r.WallMs / 1000)));
            seconds.AddRange(record.Peers.Where(r => r is { Ok: true, Link: NetworkLink.LoopbackName, SourceRows: not null, WallMs: not null })
                .Select(r => (KeyOf(r.Identity.Key, r.Warmup), r.SourceRows!.Value, r.WallMs!.Value / 1000)));
        }

        return new(seconds.GroupBy(s => s.Key).ToDictionary(g => g.Key,
            g => (IReadOnlyList<(long, double)>)[.. g.GroupBy(s => s.Rows).Select(r => (r.Key, Statistics.Median([.. r.Select(s => s.Seconds)])!.Value))]));
    }

    /// <summary>A warm-up's times are kept apart from the timed runs': a first run in a fresh process compiles, and at small sizes that is most of it.</summary>
    private static string KeyOf(string key, bool warmup) => warmup ? key + " (warm-up)" : key;

    /// <summary>
    /// The request time of <paramref name="key"/> at <paramref name="rows"/>: its timed runs' prior at the nearest size
    /// measured, scaled in proportion to the rows; for a warm-up (<paramref name="warmup"/>) what the record's warm-ups
    /// took beyond that at the same size, unscaled; null without a prior.
    /// </summary>
    public double? RequestSeconds(string key, long rows, bool warmup = false)
    {
        if (Nearest(key, rows) is not var (priorRows, wall))
        {
            return null;
        }

        // What a warm-up takes beyond a timed run is mostly compiling, which does not grow with the rows: added whole.
        var compiling = warmup && Nearest(KeyOf(key, true), priorRows) is var (warmRows, warm) && warmRows == priorRows ? Math.Max(0, warm - wall) : 0;
        return wall * rows / priorRows + compiling;
    }

    /// <summary>Whether <paramref name="key"/>'s prior was measured at <paramref name="rows"/> itself, not scaled from another size.</summary>
    public bool HasSize(string key, long rows) => Nearest(key, rows)?.Rows == rows;

    private (long Rows, double WallSeconds)? Nearest(string key, long rows) =>
        byKey.TryGetValue(key, out var sizes) && sizes.Count > 0 ? sizes.MinBy(s => Math.Abs(Math.Log((double)s.Rows / rows))) : null;
}
