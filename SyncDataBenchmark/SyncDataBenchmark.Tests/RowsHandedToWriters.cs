using System.Diagnostics;
using System.Diagnostics.Metrics;
using SyncData.ServiceDefaults;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The rows an in-process SomeService has handed to its writers (sync.rows.written, read from the meters of that
/// host's own <see cref="IMeterFactory"/>, so another host in the test process does not count): a state a test can
/// wait for instead of a time.
/// </summary>
public sealed class RowsHandedToWriters : IDisposable
{
    private const string Instrument = "sync.rows.written";
    private readonly MeterListener _listener = new();
    private long _rows;

    public RowsHandedToWriters(IMeterFactory meters)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Scope == meters && instrument.Meter.Name == SyncMeter.Name && instrument.Name == Instrument)
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((_, rows, _, _) => Interlocked.Add(ref _rows, rows));
        _listener.Start();
    }

    public long Rows => Interlocked.Read(ref _rows);

    /// <summary>Waits until at least <paramref name="rows"/> rows were handed over; fails after <paramref name="limit"/>.</summary>
    public async Task WaitForAsync(long rows, TimeSpan limit)
    {
        for (var waited = Stopwatch.StartNew(); Rows < rows; await Task.Delay(20))
        {
            if (waited.Elapsed > limit)
            {
                throw new TimeoutException($"{Rows:N0} of {rows:N0} rows handed to the writer after {limit.TotalSeconds:0} s");
            }
        }
    }

    public void Dispose() => _listener.Dispose();
}
