using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>
/// A follower's stage samples (<see cref="FollowStageSample"/>), one per source transaction applied, kept for the runner to
/// read (GET /follow/{table}/stages) and recorded as metrics. Bounded: the first <see cref="Capacity"/> are kept (a
/// struct of about 64 bytes each: 64 MB at most); past it a sample is only counted as dropped (the metrics still get
/// it), so a follower left running for days holds no more. A restarted follower starts a new log.
/// </summary>
internal sealed class FollowStageLog(string table, SyncMetrics metrics)
{
    public const int Capacity = 1_000_000;

    private readonly Lock _lock = new();
    private readonly List<FollowStageSample> _samples = [];
    private long _dropped;
    private long _batches;

    /// <summary>A batch committed on the target (its transaction began at <paramref name="began"/>, its commit returned at <paramref name="committed"/>) and then acknowledged.</summary>
    public void Add(ChangeBatch batch, DateTimeOffset began, DateTimeOffset committed, TimeSpan acknowledgement)
    {
        var number = Interlocked.Increment(ref _batches);
        metrics.RecordStage(table, FollowStage.Ack, acknowledgement.TotalMilliseconds);
        foreach (var commit in batch.Commits)
        {
            // A SyncDataSource that sends no receipt time (older code) leaves its transactions unsampled.
            if (commit is not { CommittedAt: { } source, ReceivedAt: { } received, ReadAt: { } read })
            {
                continue;
            }

            var sample = new FollowStageSample(source, Ms(received - source), Ms(read - received), Ms(began - read), Ms(committed - began),
                Ms(acknowledgement), number, batch.Transactions, batch.Changes);
            metrics.FollowStages(table, sample);
            lock (_lock)
            {
                if (_samples.Count < Capacity)
                {
                    _samples.Add(sample);
                }
                else
                {
                    _dropped++;
                }
            }
        }
    }

    public FollowStages Snapshot()
    {
        lock (_lock)
        {
            return new FollowStages(table, [.. _samples], _dropped);
        }
    }

    private static double Ms(TimeSpan span) => span.TotalMilliseconds;
}
