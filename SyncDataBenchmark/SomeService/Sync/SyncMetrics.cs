using System.Diagnostics.Metrics;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>The lab's own instruments, tagged with the case so any point on a graph names its fetch × insert.</summary>
public sealed class SyncMetrics
{
    private readonly Counter<long> _runs;
    private readonly Histogram<double> _duration;
    private readonly Counter<long> _rows;
    private readonly UpDownCounter<int> _inProgress;

    public SyncMetrics(IMeterFactory meterFactory)
    {
        var meter = meterFactory.Create(SyncMeter.Name);
        _runs = meter.CreateCounter<long>("sync.runs", "{run}", "Finished sync runs by fetch, insert and status.");
        _duration = meter.CreateHistogram<double>("sync.run.duration", "s", "Wall time of sync runs.");
        _rows = meter.CreateCounter<long>("sync.rows.written", "{row}", "Rows written by successful runs.");
        _inProgress = meter.CreateUpDownCounter<int>("sync.run.in_progress", "{run}", "1 while a run of this fetch × insert is in progress.");
    }

    public void Started(SyncRequest request) => _inProgress.Add(1, Tags(request.Fetch.ToString(), request.Insert.ToString()));

    public void Finished(RunResult run)
    {
        var tags = Tags(run.Fetch, run.Insert);
        _inProgress.Add(-1, tags);
        _runs.Add(1, [.. tags, new("status", run.Status)]);
        if (run.DurationMs is { } ms)
        {
            _duration.Record(ms / 1000, tags);
        }

        if (run.Status == RunStatus.Succeeded)
        {
            _rows.Add(run.Rows, tags);
        }
    }

    private static KeyValuePair<string, object?>[] Tags(string fetch, string insert) => [new("fetch", fetch), new("insert", insert)];
}
