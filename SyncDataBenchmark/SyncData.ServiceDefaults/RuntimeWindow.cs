using System.Diagnostics;
using SyncData.Shared;

namespace SyncData.ServiceDefaults;

/// <summary>
/// Measures this process over one run: counters at the start and end, and the working set sampled every
/// <see cref="SampleInterval"/> in between (Process.PeakWorkingSet64 is the lifetime peak and cannot be reset).
/// </summary>
public sealed class RuntimeWindow : IDisposable
{
    public static readonly TimeSpan SampleInterval = TimeSpan.FromMilliseconds(50);

    private readonly Lock _lock = new();
    private readonly List<RuntimeSample> _samples = [];
    private readonly Stopwatch _clock = new();
    private Timer? _timer;
    private long _peakWorkingSet;

    public RuntimeSnapshot Start()
    {
        // Each run starts from the same baseline: without this, memory the GC kept from an earlier run (it does not
        // return it to the OS on its own) would count in this run's working set. The collection happens before the
        // start snapshot, so it is not in the run's GC figures.
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        lock (_lock)
        {
            _timer?.Dispose();
            _samples.Clear();
            _clock.Restart();
            _peakWorkingSet = 0;
            var snapshot = Snapshot(Array.Empty<RuntimeSample>());
            SampleLocked();
            _timer = new Timer(_ => Sample(), null, SampleInterval, SampleInterval);
            return snapshot;
        }
    }

    public RuntimeSnapshot Stop()
    {
        lock (_lock)
        {
            _timer?.Dispose();
            _timer = null;
            SampleLocked();
            return Snapshot(_samples.ToArray());
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

    private RuntimeSnapshot Snapshot(IReadOnlyList<RuntimeSample> samples)
    {
        var workingSet = Environment.WorkingSet;
        return new RuntimeSnapshot(
            GC.GetTotalAllocatedBytes(precise: true),
            [GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2)],
            GC.GetTotalPauseDuration().TotalMilliseconds,
            workingSet,
            Math.Max(_peakWorkingSet, workingSet),
            samples,
            Environment.CpuUsage.TotalTime.TotalMilliseconds);
    }

    public void Dispose() => _timer?.Dispose();
}
