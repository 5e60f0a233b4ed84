namespace SyncData.Shared;

/// <summary>One point of a service's runtime counters while a measurement window is open.</summary>
/// <param name="ElapsedMs">Milliseconds since the window started.</param>
/// <param name="AllocatedBytes">GC.GetTotalAllocatedBytes as read; under DATAS it can go backwards (see ServiceFigures).</param>
/// <param name="GcCollections">Inclusive counts (GC.CollectionCount) for gen0, gen1, gen2.</param>
public sealed record RuntimeSample(double ElapsedMs, long WorkingSetBytes, long AllocatedBytes, int[] GcCollections);
