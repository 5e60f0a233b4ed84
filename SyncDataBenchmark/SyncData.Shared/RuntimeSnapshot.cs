namespace SyncData.Shared;

/// <summary>A service's process-wide runtime counters at one moment, plus the window's peak and samples.</summary>
/// <param name="GcCollections">Inclusive counts (GC.CollectionCount(gen) also counts higher-generation collections).</param>
/// <param name="CpuTimeMs">Processor time the whole process has used (user + kernel, all threads).</param>
/// <param name="HeapCount">GC heaps in use after the latest collection, as the runtime's GC events report it; null when not followed.</param>
/// <param name="HeapCountChanges">
/// Heap-count changes the GC events showed since the process started; null when they are not followed (no DATAS:
/// the count is fixed) or when the events could not be confirmed up to this moment.
/// </param>
/// <param name="AllocationTickBytes">
/// At a window's close: the bytes the runtime's GCAllocationTick events counted since it opened (independent of the
/// heap count; within <see cref="ServiceFigures.AllocationTickPrecisionBytes"/>); null at an opening or when unavailable.
/// </param>
/// <param name="AllocationTickUnavailable">Why a closing snapshot has no <paramref name="AllocationTickBytes"/>.</param>
/// <param name="JitTimeMs">Time the JIT has spent compiling, all threads (System.Runtime.JitInfo).</param>
/// <param name="JitMethods">Methods the JIT has compiled, all threads, tier-up recompilations included.</param>
public sealed record RuntimeSnapshot(
    long AllocatedBytes,
    int[] GcCollections,
    double GcPauseMs,
    long WorkingSetBytes,
    long PeakWorkingSetBytes,
    IReadOnlyList<RuntimeSample> Samples,
    double CpuTimeMs,
    RuntimeSettings? Runtime = null,
    int? HeapCount = null,
    long? HeapCountChanges = null,
    long? AllocationTickBytes = null,
    string? AllocationTickUnavailable = null,
    double JitTimeMs = 0,
    long JitMethods = 0);
