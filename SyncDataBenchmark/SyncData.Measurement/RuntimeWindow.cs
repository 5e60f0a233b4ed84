using System.Diagnostics;
using SyncData.Shared;

namespace SyncData.Measurement;

/// <summary>
/// Measures this process over one run: counters at the start and end, and the working set sampled every
/// <see cref="SampleInterval"/> in between (Process.PeakWorkingSet64 is the lifetime peak and cannot be reset).
/// </summary>
public sealed class RuntimeWindow : IDisposable
{
    public static readonly TimeSpan SampleInterval = TimeSpan.FromMilliseconds(50);

    /// <summary>How long SomeService's window start or stop waits for the GC events of the collections so far (DATAS only).</summary>
    public static readonly TimeSpan EventPatience = TimeSpan.FromSeconds(5);

    private readonly Lock _lock = new();
    private readonly List<RuntimeSample> _samples = [];
    private readonly Stopwatch _clock = new();
    private Timer? _timer;
    private long _peakWorkingSet;
    private readonly GcHeapCountTracker? _heapCounts;
    // In every profile: the allocation figure that does not depend on the heap count, and its cross-check.
    private readonly GcAllocationTicks _ticks;
    private long _openMark;

    // Creating or disposing an EventListener while another thread disposes one can deadlock inside the runtime
    // (EventListener's lock against EventPipe's dispatcher, taken in opposite orders): seen when the tests host both
    // services in one process and stop them together. One at a time, process-wide.
    private static readonly Lock ListenerLifetime = new();

    public RuntimeWindow()
    {
        Settings = RuntimeSettingsReader.Read();
        lock (ListenerLifetime)
        {
            _ticks = new GcAllocationTicks();
            // Under DATAS the heap count moves, and with it GC.GetTotalAllocatedBytes (ServiceFigures.AllocationGuard).
            _heapCounts = Settings.Datas ? new GcHeapCountTracker() : null;
        }
    }

    /// <summary>The runtime settings this process runs with (read once: they cannot change while it runs).</summary>
    public RuntimeSettings Settings { get; }

    /// <summary>Collects, then opens the window: what SomeService does as its run starts.</summary>
    public RuntimeSnapshot Start()
    {
        CollectBaseline();
        return Open(EventPatience);
    }

    /// <summary>
    /// Each run starts from the same baseline: without this, memory the GC kept from an earlier run (it does not
    /// return it to the OS on its own) would count in the next run's working set. Done before a window opens, so it
    /// is in no run's GC figures.
    /// </summary>
    public void CollectBaseline()
    {
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        // Under DATAS, wait here (off any run) for the collection's events, so that opening the next window need not.
        _heapCounts?.CatchUp(EventPatience);
    }

    /// <summary>Opens the window without collecting; <paramref name="patience"/> bounds the wait for GC events (DATAS).</summary>
    public RuntimeSnapshot Open(TimeSpan patience)
    {
        lock (_lock)
        {
            _timer?.Dispose();
            _samples.Clear();
            _clock.Restart();
            _peakWorkingSet = 0;
            // Marked before the counters are read, so the marker is in neither figure.
            _openMark = GcAllocationTicks.Mark();
            var snapshot = Snapshot(Array.Empty<RuntimeSample>(), patience);
            SampleLocked();
            _timer = new Timer(_ => Sample(), null, SampleInterval, SampleInterval);
            return snapshot;
        }
    }

    public RuntimeSnapshot Stop() => Stop(EventPatience);

    /// <summary>Closes the window; <paramref name="patience"/> bounds the wait for GC events (DATAS).</summary>
    public RuntimeSnapshot Stop(TimeSpan patience)
    {
        lock (_lock)
        {
            _timer?.Dispose();
            _timer = null;
            SampleLocked();
            var snapshot = Snapshot(_samples.ToArray(), patience);
            // Marked after the counters are read, so the marker is in neither figure.
            var (ticked, unavailable) = _ticks.Between(_openMark, GcAllocationTicks.Mark(), patience);
            return snapshot with { AllocationTickBytes = ticked, AllocationTickUnavailable = unavailable };
        }
    }

    private void Sample()
    {
        lock (_lock)
        {
            if (_timer is not null)
            {
                SampleLocked();
            }
        }
    }

    private void SampleLocked()
    {
        var workingSet = Environment.WorkingSet;
        _peakWorkingSet = Math.Max(_peakWorkingSet, workingSet);
        _samples.Add(new RuntimeSample(
            Math.Round(_clock.Elapsed.TotalMilliseconds, 1),
            workingSet,
            GC.GetTotalAllocatedBytes(precise: false),
            [GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2)]));
    }

    private RuntimeSnapshot Snapshot(IReadOnlyList<RuntimeSample> samples, TimeSpan patience)
    {
        // The events of every collection so far must have arrived before the count of changes can be trusted.
        var followed = _heapCounts?.CatchUp(patience) == true;
        var workingSet = Environment.WorkingSet;
        return new RuntimeSnapshot(
            GC.GetTotalAllocatedBytes(precise: true),
            [GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2)],
            GC.GetTotalPauseDuration().TotalMilliseconds,
            workingSet,
            Math.Max(_peakWorkingSet, workingSet),
            samples,
            Environment.CpuUsage.TotalTime.TotalMilliseconds,
            Settings,
            followed ? _heapCounts!.HeapCount : Settings.Datas ? null : (int)Settings.HeapCount,
            followed ? _heapCounts!.Changes : null,
            JitTimeMs: System.Runtime.JitInfo.GetCompilationTime(currentThread: false).TotalMilliseconds,
            JitMethods: System.Runtime.JitInfo.GetCompiledMethodCount(currentThread: false));
    }

    public void Dispose()
    {
        _timer?.Dispose();
        lock (ListenerLifetime)
        {
            _heapCounts?.Dispose();
            _ticks.Dispose();
        }
    }
}
