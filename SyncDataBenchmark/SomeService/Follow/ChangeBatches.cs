using System.Threading.Channels;
using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>
/// The follower's frames into batches of whole transactions: a batch is cut only at a commit (or heartbeat), once it
/// holds <c>batchSize</c> changes or once no frame waits: at a low rate each transaction is applied alone (least lag),
/// under load transactions group up to the batch size (fewer target commits). <b>Catching up</b> (the batch's last
/// transaction committed on the source more than <see cref="CatchingUp"/> ago: a backlog after a restart or an outage),
/// an empty channel does not cut it at once: the follower waits up to <c>gatherWait</c> for the next frame, since more
/// is on its way. Without it a drain fell, now and then, into batches of a few changes as frames trickled in (a drain of
/// 30,000 users changes in 632 batches of median 3, 2.8 s and 90 µs of CPU a change, against 31 batches of 1,001, 1.5 s and
/// 33 µs in the same record: docs/replication.md, the speed ladder): each small commit took the CPU the stream needed.
/// </summary>
internal sealed class ChangeBatches(ChannelReader<ChangeFrame> frames, int[] keyPositions, int batchSize, TimeSpan gatherWait)
{
    /// <summary>How far behind the source a batch's last transaction must be for the follower to wait for more (the matrix's lag: a few ms).</summary>
    public static readonly TimeSpan CatchingUp = TimeSpan.FromMilliseconds(100);

    /// <summary>How long a follower catching up waits for the next frame before applying what it holds.</summary>
    public static readonly TimeSpan GatherWait = TimeSpan.FromMilliseconds(5);

    /// <summary>How long an idle follower waits for a frame before acknowledging what the target flushed meanwhile (the walwriter flushes every 200 ms by default).</summary>
    private static readonly TimeSpan FlushWait = TimeSpan.FromMilliseconds(250);

    /// <summary>
    /// The next batch. While <paramref name="pending"/> says positions wait for the target's flush and no frame comes
    /// within <see cref="FlushWait"/>, <paramref name="idle"/> is called first (it acknowledges what was flushed meanwhile).
    /// </summary>
    public async Task<ChangeBatch> NextAsync(Func<bool> pending, Func<CancellationToken, Task> idle, CancellationToken ct)
    {
        var batch = new ChangeBatch(keyPositions);
        while (true)
        {
            if (pending() && !frames.TryPeek(out _) && !await FrameWithinAsync(FlushWait, ct))
            {
                await idle(ct);
            }

            var frame = await frames.ReadAsync(ct);
            switch (frame.Op)
            {
                case ChangeFrame.Insert or ChangeFrame.Update or ChangeFrame.Delete:
                    batch.Add(frame);
                    continue;
                case ChangeFrame.Commit:
                    batch.Commit(frame);
                    break;
                case ChangeFrame.Heartbeat:
                    batch.Heartbeat(frame);
                    break;
                default:
                    throw new InvalidOperationException($"A '{frame.Op}' frame came after the first copy.");
            }

            if (batch.Changes < batchSize && (frames.TryPeek(out _) || (IsCatchingUp(batch) && await FrameWithinAsync(gatherWait, ct))))
            {
                continue;
            }

            return batch;
        }
    }

    private static bool IsCatchingUp(ChangeBatch batch) => batch.LastCommit is { } committed && DateTimeOffset.UtcNow - committed > CatchingUp;

    private async Task<bool> FrameWithinAsync(TimeSpan wait, CancellationToken ct)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(wait);
        try
        {
            return await frames.WaitToReadAsync(timeout.Token);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return false;
        }
    }
}
