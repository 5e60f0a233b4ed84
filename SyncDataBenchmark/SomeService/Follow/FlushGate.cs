using NpgsqlTypes;

namespace SomeService.Follow;

/// <summary>
/// The follower commits with synchronous_commit off (as PostgreSQL's own apply worker does), so a commit that returned
/// may still be lost if the target crashes: a source position is acknowledged only once the target has flushed the
/// commit that stored it, and a position that stored nothing (a heartbeat) only once everything before it is flushed.
/// Confirming merely committed positions would let the slot skip changes the target then lost.
/// </summary>
internal sealed class FlushGate
{
    private readonly Queue<(string SourceLsn, NpgsqlLogSequenceNumber TargetLsn)> _pending = new();
    private NpgsqlLogSequenceNumber _lastTarget;

    public bool HasPending => _pending.Count > 0;

    /// <summary>A batch committed; <paramref name="targetLsn"/> is at or past its commit record on the target.</summary>
    public void Applied(string sourceLsn, NpgsqlLogSequenceNumber targetLsn)
    {
        _lastTarget = targetLsn;
        _pending.Enqueue((sourceLsn, targetLsn));
    }

    /// <summary>A position that wrote nothing: releasable with the batch before it.</summary>
    public void Passed(string sourceLsn) => _pending.Enqueue((sourceLsn, _lastTarget));

    /// <summary>The furthest source position whose target commit, and every one before it, is within <paramref name="flushed"/>; null when none is new.</summary>
    public string? Release(NpgsqlLogSequenceNumber flushed)
    {
        string? released = null;
        while (_pending.TryPeek(out var next) && next.TargetLsn <= flushed)
        {
            released = _pending.Dequeue().SourceLsn;
        }

        return released;
    }
}
