namespace SyncData.Shared;

/// <summary>What one service spent during a run: the difference of two snapshots.</summary>
/// <param name="AllocatedBytes">
/// Managed bytes allocated during the run; null when the figure cannot be trusted (<see cref="AllocatedBytesUnavailable"/>).
/// </param>
/// <param name="GcGen0">Exclusive: gen0-only collections (like dotnet.gc.collections{gen=gen0}).</param>
/// <param name="PeakWorkingSetBytes">Highest working set sampled during the run (at RuntimeWindow.SampleInterval), not the process-lifetime peak.</param>
/// <param name="CpuTimeMs">Processor time the service used during the run: with 2 cores shared with PostgreSQL, where the time goes.</param>
/// <param name="AllocatedBytesUnavailable">Why <see cref="AllocatedBytes"/> is null.</param>
/// <param name="Runtime">The runtime settings the service ran with.</param>
/// <param name="HeapCountStart">GC heaps in use when the run started (Server GC: fixed without DATAS).</param>
/// <param name="HeapCountEnd">GC heaps in use when the run ended.</param>
/// <param name="AllocationTickBytes">
/// Managed bytes allocated during the run as the sum of the runtime's GCAllocationTick events: valid whatever DATAS
/// did, within <see cref="AllocationTickPrecisionBytes"/>; null when unavailable (<paramref name="AllocationTickUnavailable"/>).
/// Where <paramref name="AllocatedBytes"/> is also reported, the two cross-check each other (<see cref="AllocationTicksAgree"/>).
/// </param>
/// <param name="AllocationTickUnavailable">Why <paramref name="AllocationTickBytes"/> is null.</param>
/// <param name="JitTimeMs">
/// Time the JIT spent compiling during the run. Tiered compilation keeps recompiling methods in the background for
/// tens of runs after a start (a method is promoted after 30 calls, so once-per-run code takes 30 runs); on 2 cores that
/// work competes with PostgreSQL, so a run with much of it is not yet steady state (--warmup).
/// </param>
/// <param name="JitMethods">Methods compiled during the run (tier-up recompilations included).</param>
public sealed record ServiceFigures(
    long? AllocatedBytes,
    long PeakWorkingSetBytes,
    int GcGen0,
    int GcGen1,
    int GcGen2,
    double GcPauseMs,
    IReadOnlyList<RuntimeSample>? Samples,
    double CpuTimeMs,
    string? AllocatedBytesUnavailable = null,
    RuntimeSettings? Runtime = null,
    int? HeapCountStart = null,
    int? HeapCountEnd = null,
    long? AllocationTickBytes = null,
    string? AllocationTickUnavailable = null,
    double? JitTimeMs = null,
    long? JitMethods = null)
{
    /// <summary>
    /// How far the tick sum may stand from the bytes allocated (docs/measuring.md): 1% for what the ticks count
    /// beyond the objects (each allocation-context grant is counted with a minimum object's padding, and its unused
    /// tail when a collection retires it: measured +0.09% to +0.90%, so 0.5% was too tight), plus 512 KiB per GC heap for the window's two edges (per heap and kind, up
    /// to ~100 KiB from before the opening in the first tick, and up to ~100 KiB not yet ticked at the close; per
    /// thread, one allocation context granted on one side of an edge and used on the other), never less than 1 MiB.
    /// </summary>
    /// <param name="heaps">The most GC heaps the process can have in use (RuntimeSettings.HeapCount): under DATAS the
    /// count may rise and fall inside a window, and a heap taken out of use keeps its unticked remainder.</param>
    public static long AllocationTickPrecisionBytes(long bytes, long heaps) =>
        Math.Abs(bytes) / 100 + Math.Max(1L << 20, Math.Max(heaps, 1) * (512L << 10));

    /// <summary>Both figures are there and stand within <see cref="AllocationTickPrecision"/> of each other; null without both.</summary>
    public bool? AllocationTicksAgree => AllocatedBytes is { } exact && AllocationTickBytes is { } ticked
        ? Math.Abs(ticked - exact) <= AllocationTickPrecision()
        : null;

    /// <summary>
    /// <see cref="AllocationTickPrecisionBytes"/> for this window: its allocation, and the runtime's most heaps (else
    /// the most seen at the window's edges). A method, so the run record does not carry it as a figure of its own.
    /// </summary>
    public long AllocationTickPrecision()
    {
        var heaps = Runtime?.HeapCount is > 0 and var most ? most : Math.Max(HeapCountStart ?? 1, HeapCountEnd ?? 1);
        return AllocationTickPrecisionBytes(AllocatedBytes ?? AllocationTickBytes ?? 0, heaps);
    }

    public static ServiceFigures Between(RuntimeSnapshot start, RuntimeSnapshot end)
    {
        int Inclusive(int gen) => end.GcCollections[gen] - start.GcCollections[gen];
        var unavailable = AllocationGuard(start, end);
        return new ServiceFigures(
            AllocatedBytes: unavailable is null ? end.AllocatedBytes - start.AllocatedBytes : null,
            PeakWorkingSetBytes: Math.Max(end.PeakWorkingSetBytes, start.WorkingSetBytes),
            GcGen0: Inclusive(0) - Inclusive(1),
            GcGen1: Inclusive(1) - Inclusive(2),
            GcGen2: Inclusive(2),
            GcPauseMs: end.GcPauseMs - start.GcPauseMs,
            Samples: end.Samples,
            CpuTimeMs: Math.Round(end.CpuTimeMs - start.CpuTimeMs, 1),
            AllocatedBytesUnavailable: unavailable,
            Runtime: end.Runtime,
            HeapCountStart: start.HeapCount,
            HeapCountEnd: end.HeapCount,
            AllocationTickBytes: end.AllocationTickBytes,
            AllocationTickUnavailable: end.AllocationTickBytes is null ? end.AllocationTickUnavailable ?? "the window's close counted no allocation events" : null,
            JitTimeMs: Math.Round(end.JitTimeMs - start.JitTimeMs, 1),
            JitMethods: end.JitMethods - start.JitMethods);
    }

    /// <summary>
    /// Why the difference of GC.GetTotalAllocatedBytes cannot be reported for this window, or null when it is exact.
    /// The runtime sums that counter over the heaps in use only (dotnet/runtime#131069, fixed after .NET 10.0.12):
    /// each heap's own total is kept while DATAS takes it out of use, so the sum drops when heaps are taken out and
    /// jumps by their old totals when they come back. With the same heaps in use throughout the window the
    /// difference counts every byte allocated in it; with any change it may be understated, negative or overstated.
    /// </summary>
    /// <summary>How far an imprecise read may trail without meaning anything (allocation contexts, exited threads).</summary>
    public const long SampleSlackBytes = 4L << 20;

    private static string WentBackwards(RuntimeSnapshot start, RuntimeSnapshot end) =>
        "GC.GetTotalAllocatedBytes went backwards during the run" +
        (end.Runtime is { Datas: true } || start.Runtime is { Datas: true } ? " (DATAS is on, though no heap count change was seen)" : "") +
        " (dotnet/runtime#131069)";

    public static string? AllocationGuard(RuntimeSnapshot start, RuntimeSnapshot end)
    {
        if (end.Runtime is { Datas: true } || start.Runtime is { Datas: true })
        {
            if (start.HeapCountChanges is not { } before || end.HeapCountChanges is not { } after)
            {
                return "DATAS is on and the GC heap count could not be followed through the run, so GC.GetTotalAllocatedBytes may have dropped (dotnet/runtime#131069)";
            }

            if (after != before)
            {
                return $"DATAS changed the GC heap count during the run ({start.HeapCount} → {end.HeapCount}, {after - before} change(s)); " +
                       "GC.GetTotalAllocatedBytes sums only the heaps in use (dotnet/runtime#131069), so the difference would be wrong";
            }
        }

        // Belt and braces: whatever the cause, a counter that went backwards cannot give a true difference (seen under
        // DATAS with no heap count change observed, so the reason says whether DATAS was on). The
        // samples are imprecise reads (they may trail by an allocation context per thread, and drop by one when a
        // thread exits), so only a drop beyond that slack counts; the start and end reads are precise.
        long highest = 0;
        foreach (var sample in end.Samples)
        {
            if (sample.AllocatedBytes < highest - SampleSlackBytes)
            {
                return WentBackwards(start, end);
            }

            highest = Math.Max(highest, sample.AllocatedBytes);
        }

        return end.AllocatedBytes < start.AllocatedBytes ? WentBackwards(start, end) : null;
    }
}
