using System.Diagnostics;
using System.Text.Json;
using SyncData.Measurement;
using SyncData.Shared;

namespace SyncData.DatasProbe;

/// <summary>
/// The probe's windows. Its workers count exactly what they allocate (GC.GetAllocatedBytesForCurrentThread), the truth
/// the reported figure is held against. Windows alternate: bursts on every core with a large live set (DATAS adds
/// heaps), then a slow trickle with little live data (DATAS removes them), and small windows that cannot trigger a
/// collection at all. Each window also reports the sum of the runtime's allocation ticks, which must hold the same
/// truth whatever the heap count did.
/// </summary>
internal static class AllocationWindows
{
    // Read by no one: the allocations must not be optimised away.
    internal static object? Sink;

    /// <summary>Window <paramref name="i"/> measured and written as one JSON line; whether the heap count changed in it, and whether its exact figure was reported.</summary>
    public static (bool HeapCountChanged, bool ExactReported) Measure(RuntimeWindow window, int i)
    {
        var kind = (i % 3) switch { 0 => "burst", 1 => "trickle", _ => "small" };
        var start = window.Start();
        var allocated = kind switch
        {
            "burst" => Burst(TimeSpan.FromSeconds(2)),
            "trickle" => Trickle(TimeSpan.FromSeconds(4)),
            _ => Small(),
        };
        var end = window.Stop();
        var figures = ServiceFigures.Between(start, end);
        Console.WriteLine(JsonSerializer.Serialize(new
        {
            window = i,
            kind,
            allocatedByWorkers = allocated,
            reported = figures.AllocatedBytes,
            unavailable = figures.AllocatedBytesUnavailable,
            ticked = figures.AllocationTickBytes,
            tickUnavailable = figures.AllocationTickUnavailable,
            raw = end.AllocatedBytes - start.AllocatedBytes,
            heapCountStart = start.HeapCount,
            heapCountEnd = end.HeapCount,
            changes = end.HeapCountChanges - start.HeapCountChanges,
            collections = end.GcCollections[0] - start.GcCollections[0],
        }));
        return (end.HeapCountChanges != start.HeapCountChanges, figures.AllocatedBytes is not null && kind != "small");
    }

    private static long Burst(TimeSpan length)
    {
        var clock = Stopwatch.StartNew();
        var workers = Enumerable.Range(0, Environment.ProcessorCount).Select(_ => Task.Factory.StartNew(() =>
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            var live = new List<byte[]>();
            while (clock.Elapsed < length)
            {
                live.Add(new byte[1000]);
                if (live.Count > 100_000)
                {
                    live.Clear();
                }
            }

            return GC.GetAllocatedBytesForCurrentThread() - before;
        }, TaskCreationOptions.LongRunning)).ToArray();
        Task.WaitAll(workers);
        return workers.Sum(w => w.Result);
    }

    private static long Trickle(TimeSpan length)
    {
        var clock = Stopwatch.StartNew();
        var before = GC.GetAllocatedBytesForCurrentThread();
        while (clock.Elapsed < length)
        {
            for (var i = 0; i < 1000; i++)
            {
                Sink = new byte[1000];
            }

            Thread.Sleep(10);
        }

        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    private static long Small()
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 200; i++)
        {
            Sink = new byte[1000];
        }

        return GC.GetAllocatedBytesForCurrentThread() - before;
    }
}
