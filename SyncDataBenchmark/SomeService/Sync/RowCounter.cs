using System.Diagnostics.Metrics;

namespace SomeService.Sync;

/// <summary>
/// Adds rows to sync.rows.written in steps of <see cref="SyncMetrics.RowsPerStep"/>, and the remainder at the end; keeps
/// the run's total, which a merge's own count must agree with.
/// </summary>
internal sealed class RowCounter(Counter<long> counter, KeyValuePair<string, object?>[] tags)
{
    private int _pending;

    /// <summary>Every row counted so far (the pending ones included).</summary>
    public long Total { get; private set; }

    public void Add(int rows)
    {
        Total += rows;
        _pending += rows;
        if (_pending >= SyncMetrics.RowsPerStep)
        {
            counter.Add(_pending, tags);
            _pending = 0;
        }
    }

    public void Flush()
    {
        if (_pending > 0)
        {
            counter.Add(_pending, tags);
            _pending = 0;
        }
    }
}
