namespace SyncData.Shared;

/// <summary>
/// The runtime settings a process actually runs with, read from the runtime itself (GC configuration, GCSettings,
/// the thread pool), not from what was asked: a misspelt environment variable shows here as the default.
/// </summary>
/// <param name="ServerGc">GCSettings.IsServerGC.</param>
/// <param name="ConcurrentGc">Background GC enabled (GC configuration "ConcurrentGC").</param>
/// <param name="DynamicAdaptationMode">GC configuration "GCDynamicAdaptationMode": 1 = DATAS, 0 = off. Applies to Server GC only.</param>
/// <param name="Gen0MaxBudgetBytes">GC configuration "GCGen0MaxBudget": the cap on gen0's allocation budget per heap.</param>
/// <param name="HeapCount">GC configuration "HeapCount": the heaps created at startup (DATAS uses up to this many).</param>
/// <param name="ThreadPoolSpinLimit">The thread pool's idle-worker spin count, or null when this runtime does not expose it.</param>
public sealed record RuntimeSettings(
    bool ServerGc,
    bool ConcurrentGc,
    long DynamicAdaptationMode,
    long Gen0MaxBudgetBytes,
    long HeapCount,
    int? ThreadPoolSpinLimit)
{
    /// <summary>DATAS is in effect: Server GC with dynamic adaptation on (Workstation GC ignores the setting).</summary>
    public bool Datas => ServerGc && DynamicAdaptationMode == 1;
}
