using System.Diagnostics;
using System.Diagnostics.Tracing;

namespace SyncData.Measurement;

/// <summary>
/// Follows the GC heap count under DATAS from the runtime's own GC events (in-process EventListener, GC keyword,
/// informational). DATAS changes the count only at the start of a collection, and every collection reports the
/// count it ran with (GCGlobalHeapHistory) before it ends (GCEnd, numbered like GC.CollectionCount(0)). So once the
/// events up to the current collection have arrived, <see cref="Changes"/> counts every change up to now.
/// Only started when DATAS is in effect: without it the count is fixed and nothing needs following.
/// </summary>
public sealed class GcHeapCountTracker : EventListener
{
    private const string RuntimeSource = "Microsoft-Windows-DotNETRuntime";
    private const EventKeywords GcKeyword = (EventKeywords)0x1;

    private readonly Lock _lock = new();
    private int _heapCount = -1;
    private long _changes;
    private long _lastGcEnded;

    /// <summary>Heaps in use after the latest collection whose events arrived; -1 before the first.</summary>
    public int HeapCount
    {
        get { lock (_lock) { return _heapCount; } }
    }

    /// <summary>Changes of the heap count seen since this tracker started.</summary>
    public long Changes
    {
        get { lock (_lock) { return _changes; } }
    }

    /// <summary>
    /// Waits until the events of every collection so far (GC.CollectionCount(0)) have arrived, so that
    /// <see cref="Changes"/> is complete up to now. False if they did not arrive within <paramref name="patience"/>.
    /// </summary>
    public bool CatchUp(TimeSpan patience)
    {
        var target = GC.CollectionCount(0);
        var clock = Stopwatch.StartNew();
        while (true)
        {
            lock (_lock)
            {
                if (_lastGcEnded >= target)
                {
                    return true;
                }
            }

            if (clock.Elapsed > patience)
            {
                return false;
            }

            Thread.Sleep(2);
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == RuntimeSource)
        {
            EnableEvents(eventSource, EventLevel.Informational, GcKeyword);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs e)
    {
        if (e.EventName is null || e.PayloadNames is null || e.Payload is null)
        {
            return;
        }

        if (e.EventName.StartsWith("GCGlobalHeapHistory", StringComparison.Ordinal))
        {
            var index = e.PayloadNames.IndexOf("NumHeaps");
            if (index >= 0)
            {
                var heaps = Convert.ToInt32(e.Payload[index], System.Globalization.CultureInfo.InvariantCulture);
                lock (_lock)
                {
                    if (_heapCount >= 0 && heaps != _heapCount)
                    {
                        _changes++;
                    }

                    _heapCount = heaps;
                }
            }
        }
        else if (e.EventName.StartsWith("GCEnd", StringComparison.Ordinal))
        {
            var index = e.PayloadNames.IndexOf("Count");
            if (index >= 0)
            {
                var count = Convert.ToInt64(e.Payload[index], System.Globalization.CultureInfo.InvariantCulture);
                lock (_lock)
                {
                    _lastGcEnded = Math.Max(_lastGcEnded, count);
                }
            }
        }
    }
}
