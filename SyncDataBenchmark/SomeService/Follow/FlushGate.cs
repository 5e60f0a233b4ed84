using NpgsqlTypes;

namespace SomeService.Follow;

/// <summary>
/// The follower commits with synchronous_commit off (as PostgreSQL's own apply worker does), so a commit that returned
/// may still be lost if the target crashes: a source position is acknowledged only once the target has flushed the
/// commit that stored it and every one before it. The follower learns where its commits lie from the target's WAL insert
/// position read after them (the next batch's first statement, or an idle follower's look): every commit made before that
/// read lies at or before it. A position that stored nothing (a heartbeat) is treated alike. Confirming merely committed
/// positions would let the slot skip changes the target then lost.
/// </summary>
internal sealed class FlushGate
{
    private readonly List<(string SourceLsn, NpgsqlLogSequenceNumber? TargetLsn)> _pending = [];

    public bool HasPending => _pending.Count > 0;

    /// <summary>A batch committed (or a heartbeat passed) bringing the target up to <paramref name="sourceLsn"/>; where its commit lies is read later.</summary>
    public void Committed(string sourceLsn) => _pending.Add((sourceLsn, null));

    /// <summary>
    /// The target's WAL insert position <paramref name="written"/> read after every commit so far, and its flushed
    /// position: answers the furthest source position whose commit, and every one before it, is flushed; null when none is new.
    /// </summary>
    public string? Observe(NpgsqlLogSequenceNumber written, NpgsqlLogSequenceNumber flushed)
    {
        for (var i = _pending.Count - 1; i >= 0 && _pending[i].TargetLsn is null; i--)
        {
            _pending[i] = (_pending[i].SourceLsn, written);
        }

        var released = 0;
        while (released < _pending.Count && _pending[released].TargetLsn is { } target && target <= flushed)
        {
            released++;
        }

        if (released == 0)
        {
            return null;
        }

        var lsn = _pending[released - 1].SourceLsn;
        _pending.RemoveRange(0, released);
        return lsn;
    }
}
