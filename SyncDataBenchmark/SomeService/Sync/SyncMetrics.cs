using System.Diagnostics.Metrics;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>The lab's own instruments, tagged with the case so any point on a graph names its fetch × insert.</summary>
public sealed class SyncMetrics
{
    /// <summary>Rows are added to sync.rows.written in steps of this many: live enough for rows/s, cheap per row.</summary>
    public const int RowsPerStep = 1000;

    /// <summary>
    /// sync.run.duration buckets (seconds): a COPY run of a few thousand rows takes well under a second, a million
    /// rows through EF Core with offset paging takes minutes.
    /// </summary>
    public static readonly double[] DurationBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 180, 300, 600, 1200, 1800, 3600];

    private readonly Counter<long> _runs;
    private readonly Histogram<double> _duration;
    private readonly Counter<long> _rows;
    private readonly UpDownCounter<int> _inProgress;
    private readonly Histogram<double> _followLag;
    private readonly Counter<long> _followChanges;
    private readonly Histogram<double> _followStage;
    private readonly Dictionary<string, long> _appliedLsn = [];

    public SyncMetrics(IMeterFactory meterFactory)
    {
        var meter = meterFactory.Create(SyncMeter.Name);
        _runs = meter.CreateCounter<long>("sync.runs", "{run}", "Finished sync runs by fetch, insert and status.");
        _duration = meter.CreateHistogram("sync.run.duration", "s", "Wall time of sync runs.", tags: null,
            new InstrumentAdvice<double> { HistogramBucketBoundaries = DurationBuckets });
        _rows = meter.CreateCounter<long>("sync.rows.written", "{row}",
            $"Rows moved into the target's open transaction, counted while they move (in steps of {RowsPerStep}). " +
            "Rows of a run that then fails or is cancelled count too: moved, not committed (sync.runs has each run's status).");
        _inProgress = meter.CreateUpDownCounter<int>("sync.run.in_progress", "{run}", "1 while a run of this fetch × insert is in progress.");
        _followLag = meter.CreateHistogram("sync.follow.lag", "s",
            "NpgsqlReplication: from the source's commit of a batch's last transaction to the target's commit of the batch (one clock: the service's).",
            tags: null, new InstrumentAdvice<double> { HistogramBucketBoundaries = LagBuckets });
        _followStage = meter.CreateHistogram("sync.follow.stage", "s",
            "NpgsqlReplication: where a source transaction's lag went, by stage (decode, relay, queue, apply: back to back from the source's commit to the target's), "
            + "and the acknowledgement after each batch (ack); one host's clock.",
            tags: null, new InstrumentAdvice<double> { HistogramBucketBoundaries = LagBuckets });
        _followChanges = meter.CreateCounter<long>("sync.follow.changes", "{change}", "NpgsqlReplication: changes committed to the target.");
        meter.CreateObservableGauge("sync.follow.applied_lsn", AppliedLsns, "{lsn}",
            "NpgsqlReplication: the source LSN the target's table is committed up to (stored beside its rows), as a number; the source's current LSN minus it is the bytes behind.");
    }

    public void Started(SyncRequest request) => _inProgress.Add(1, Tags(request.Fetch.ToString(), request.Insert.ToString()));

    /// <summary>A run's counter of the rows handed to its writer (sync.rows.written), which also keeps the run's total.</summary>
    internal RowCounter NewRowCounter(SyncRequest request) => new(_rows, Tags(request.Fetch.ToString(), request.Insert.ToString()));

    /// <summary>
    /// <paramref name="rows"/>, counting every row handed to the writer into <paramref name="counter"/> as it goes, so
    /// rows/s can be watched during a run.
    /// </summary>
    internal static IAsyncEnumerable<TRow> CountWritten<TRow>(IAsyncEnumerable<TRow> rows, RowCounter counter) => new CountingRows<TRow>(rows, counter);

    /// <summary>A binary COPY body relayed unparsed, counting its tuples into <paramref name="counter"/> as they pass.</summary>
    internal static Stream CountWritten(Stream binaryCopy, RowCounter counter) => new CopyTupleCountingStream(binaryCopy, counter);

    public void Finished(RunResult run)
    {
        var tags = Tags(run.Fetch, run.Insert);
        _inProgress.Add(-1, tags);
        _runs.Add(1, [.. tags, new("status", run.Status)]);
        if (run.DurationMs is { } ms)
        {
            _duration.Record(ms / 1000, tags);
        }
    }

    /// <summary>sync.follow.lag buckets (seconds): a transaction applied alone takes milliseconds; a backlog, seconds to minutes.</summary>
    public static readonly double[] LagBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

    /// <summary>A NpgsqlReplication batch committed on the target: its changes, the LSN stored, the lag of its last transaction.</summary>
    internal void Followed(string table, long changes, NpgsqlTypes.NpgsqlLogSequenceNumber lsn, TimeSpan? lag)
    {
        var tags = new KeyValuePair<string, object?>("table", table);
        _followChanges.Add(changes, tags);
        if (lag is { } l)
        {
            _followLag.Record(l.TotalSeconds, tags);
        }

        lock (_appliedLsn)
        {
            _appliedLsn[table] = (long)(ulong)lsn;
        }
    }

    /// <summary>A transaction's lag stages into sync.follow.stage (<see cref="FollowStage.Lag"/>).</summary>
    internal void FollowStages(string table, FollowStageSample sample)
    {
        foreach (var stage in FollowStage.Lag)
        {
            RecordStage(table, stage, stage.Of(sample));
        }
    }

    internal void RecordStage(string table, FollowStage stage, double milliseconds) =>
        _followStage.Record(milliseconds / 1000, new KeyValuePair<string, object?>("table", table), new KeyValuePair<string, object?>("stage", stage.Name));

    private IEnumerable<Measurement<long>> AppliedLsns()
    {
        lock (_appliedLsn)
        {
            return [.. _appliedLsn.Select(a => new Measurement<long>(a.Value, new KeyValuePair<string, object?>("table", a.Key)))];
        }
    }

    private static KeyValuePair<string, object?>[] Tags(string fetch, string insert) => [new("fetch", fetch), new("insert", insert)];
}
