using System.Diagnostics;
using System.Diagnostics.Tracing;

namespace SyncData.Measurement;

/// <summary>
/// Sums the runtime's GCAllocationTick events (in-process EventListener, GC keyword, verbose): each heap fires one for
/// each kind of allocation (small, large, pinned) once ~100 KiB were handed out since its previous one, carrying that
/// amount. Unlike GC.GetTotalAllocatedBytes under DATAS (dotnet/runtime#131069), the sum does not depend on which heaps
/// are in use. A window is delimited by markers: an array of a private type, large enough to fire a tick of its own on
/// the allocating thread, so its tick falls between the window's ticks in the events' (timestamp) order; the bytes of
/// a window are the ticks that arrived between its opening marker's and its closing marker's. Precision:
/// ServiceFigures.AllocationTickPrecisionBytes (docs/measuring.md, "Allocated bytes under DATAS").
/// </summary>
public sealed class GcAllocationTicks : EventListener
{
    private const string RuntimeSource = "Microsoft-Windows-DotNETRuntime";
    private const EventKeywords GcKeyword = (EventKeywords)0x1;
    private const string TickEvent = "GCAllocationTick_V4";

    // A marker's length encodes its number (modulo MarkerSpan, in steps of MarkerStep elements, coarse enough for the
    // event's ObjectSize to include a header and padding), so a lost marker tick leaves a gap, never a misattribution.
    private const int MarkerBase = 16_384;
    private const int MarkerSpan = 256;
    private const int MarkerStep = 64;
    private const int MarksKept = 64;

    // Numbered process-wide: every listener in the process sees every marker's tick (in-process tests run both
    // services, so two windows, in one process), so each must number them alike.
    private static readonly Lock MarkLock = new();
    private static long _marksAllocated;
    private readonly Lock _lock = new();
    // Per marker: the sum before its own tick (a window's close) and after it (a window's opening).
    private readonly Dictionary<long, (long Before, long After)> _sumAtMark = [];
    private long _marksSeen = MarksAllocated();
    private long _sum;
    private int _amountIndex = -1;
    private int _typeIndex = -1;
    private int _sizeIndex = -1;

    // The event names the type without its namespace or declaring type, hence a name of its own.
    private sealed class GcAllocationTickMarker;

    private static readonly string MarkerTypeName = typeof(GcAllocationTickMarker[]).Name;

    /// <summary>Allocates the next marker; its number opens or closes a window in <see cref="Between"/>.</summary>
    public static long Mark()
    {
        lock (MarkLock)
        {
            var number = ++_marksAllocated;
            // Kept alive only until its tick fired (synchronously, in the allocation).
            GC.KeepAlive(new GcAllocationTickMarker[MarkerBase + (int)(number % MarkerSpan) * MarkerStep]);
            return number;
        }
    }

    /// <summary>
    /// Bytes the ticks counted between two markers, once the closing one's tick arrived (within <paramref name="patience"/>);
    /// null with the reason when it did not, or when a marker's tick was lost.
    /// </summary>
    public (long? Bytes, string? Unavailable) Between(long open, long close, TimeSpan patience)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            lock (_lock)
            {
                if (_marksSeen >= close)
                {
                    return _sumAtMark.TryGetValue(open, out var start) && _sumAtMark.TryGetValue(close, out var end)
                        ? (end.Before - start.After, null)
                        : (null, $"the allocation event of the window's {(_sumAtMark.ContainsKey(open) ? "closing" : "opening")} marker was lost or is no longer kept");
                }
            }

            if (clock.Elapsed >= patience)
            {
                return (null, $"the runtime's allocation events up to the window's end did not arrive within {patience.TotalMilliseconds:0} ms");
            }

            Thread.Sleep(1);
        }
    }

    private static long MarksAllocated()
    {
        lock (MarkLock)
        {
            return _marksAllocated;
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == RuntimeSource)
        {
            EnableEvents(eventSource, EventLevel.Verbose, GcKeyword);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs e)
    {
        if (e.EventName != TickEvent || e.Payload is not { } payload || e.PayloadNames is not { } names)
        {
            return;
        }

        if (_amountIndex < 0)
        {
            _amountIndex = names.IndexOf("AllocationAmount64");
            _typeIndex = names.IndexOf("TypeName");
            _sizeIndex = names.IndexOf("ObjectSize");
        }

        var amount = Convert.ToInt64(payload[_amountIndex], System.Globalization.CultureInfo.InvariantCulture);
        var marker = payload[_typeIndex] is string type && type == MarkerTypeName;
        lock (_lock)
        {
            _sum += amount;
            if (marker)
            {
                Marked(Convert.ToInt64(payload[_sizeIndex], System.Globalization.CultureInfo.InvariantCulture), amount);
            }
        }
    }

    /// <summary>A marker's tick (already summed): everything that arrived before it is before the mark; the tick itself is in no window.</summary>
    private void Marked(long objectSize, long amount)
    {
        // The next marker number (after the last seen) with this remainder: a lost marker is skipped, not misread.
        var remainder = (objectSize / IntPtr.Size - MarkerBase) / MarkerStep;
        var number = _marksSeen + 1;
        number += ((remainder - number % MarkerSpan) % MarkerSpan + MarkerSpan) % MarkerSpan;
        _marksSeen = number;
        _sumAtMark[number] = (_sum - amount, _sum);
        foreach (var old in _sumAtMark.Keys.Where(k => k <= number - MarksKept).ToList())
        {
            _sumAtMark.Remove(old);
        }
    }
}
