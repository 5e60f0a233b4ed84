namespace SyncData.Shared;

/// <summary>One point of a service's runtime counters while a measurement window is open.</summary>
/// <param name="ElapsedMs">Milliseconds since the window started.</param>
/// <param name="GcCollections">Inclusive counts (GC.CollectionCount) for gen0, gen1, gen2.</param>
public sealed record RuntimeSample(double ElapsedMs, long WorkingSetBytes, long AllocatedBytes, int[] GcCollections);

/// <summary>A service's process-wide runtime counters at one moment, plus the window's peak and samples.</summary>
/// <param name="GcCollections">Inclusive counts (GC.CollectionCount(gen) also counts higher-generation collections).</param>
/// <param name="CpuTimeMs">Processor time the whole process has used (user + kernel, all threads).</param>
public sealed record RuntimeSnapshot(
    long AllocatedBytes,
    int[] GcCollections,
    double GcPauseMs,
    long WorkingSetBytes,
    long PeakWorkingSetBytes,
    IReadOnlyList<RuntimeSample> Samples,
    double CpuTimeMs);

/// <summary>What one service spent during a run: the difference of two snapshots.</summary>
/// <param name="GcGen0">Exclusive: gen0-only collections (like dotnet.gc.collections{gen=gen0}).</param>
/// <param name="PeakWorkingSetBytes">Highest working set sampled during the run (≤ 100 ms apart), not the process-lifetime peak.</param>
/// <param name="CpuTimeMs">Processor time the service used during the run: with 2 cores shared with PostgreSQL, where the time goes.</param>
public sealed record ServiceFigures(
    long AllocatedBytes,
    long PeakWorkingSetBytes,
    int GcGen0,
    int GcGen1,
    int GcGen2,
    double GcPauseMs,
    IReadOnlyList<RuntimeSample>? Samples,
    double CpuTimeMs)
{
    public static ServiceFigures Between(RuntimeSnapshot start, RuntimeSnapshot end)
    {
        int Inclusive(int gen) => end.GcCollections[gen] - start.GcCollections[gen];
        return new ServiceFigures(
            AllocatedBytes: end.AllocatedBytes - start.AllocatedBytes,
            PeakWorkingSetBytes: Math.Max(end.PeakWorkingSetBytes, start.WorkingSetBytes),
            GcGen0: Inclusive(0) - Inclusive(1),
            GcGen1: Inclusive(1) - Inclusive(2),
            GcGen2: Inclusive(2),
            GcPauseMs: end.GcPauseMs - start.GcPauseMs,
            Samples: end.Samples,
            CpuTimeMs: Math.Round(end.CpuTimeMs - start.CpuTimeMs, 1));
    }
}
