using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.json is committed after every full run: every run's 50 ms samples made it 20 MB. Only the run a picture
/// shows keeps its samples, thinned to at most <see cref="MaxPoints"/> per service so that the peak working set,
/// the allocation curve and every GC count survive (each kept point is a bucket's maximum working set with the
/// counters at the bucket's end).
/// </summary>
public static class SampleThinning
{
    public const int MaxPoints = 400;

    public static List<CombinationRun> KeepPictured(IEnumerable<CombinationRun> runs, IReadOnlyList<SummaryRow> summary)
    {
        var pictured = summary.Where(s => s.PictureRunId is not null).Select(s => s.PictureRunId!.Value).ToHashSet();
        return runs.Select(run => run.Result is not { } result ? run : run with
        {
            Result = result with
            {
                SomeService = Thin(result.SomeService, pictured.Contains(result.Id)),
                SyncDataSource = Thin(result.SyncDataSource, pictured.Contains(result.Id)),
            },
        }).ToList();
    }

    private static ServiceFigures? Thin(ServiceFigures? figures, bool keep) =>
        figures is null ? null : figures with { Samples = keep && figures.Samples is { } samples ? Thin(samples) : null };

    public static IReadOnlyList<RuntimeSample> Thin(IReadOnlyList<RuntimeSample> samples)
    {
        if (samples.Count <= MaxPoints)
        {
            return samples;
        }

        var kept = new List<RuntimeSample>(MaxPoints + 1) { samples[0] };
        var perBucket = (double)(samples.Count - 1) / (MaxPoints - 1);
        for (var bucket = 0; bucket < MaxPoints - 1; bucket++)
        {
            var from = 1 + (int)(bucket * perBucket);
            var to = Math.Min(samples.Count, 1 + (int)((bucket + 1) * perBucket));
            if (from >= to)
            {
                continue;
            }

            var last = samples[to - 1];
            var peak = samples.Skip(from).Take(to - from).Max(s => s.WorkingSetBytes);
            kept.Add(last with { WorkingSetBytes = peak });
        }

        return kept;
    }
}
