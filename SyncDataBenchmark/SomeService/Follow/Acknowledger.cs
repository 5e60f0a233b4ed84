using System.Threading.Channels;

namespace SomeService.Follow;

/// <summary>
/// A follower's acknowledgements, sent off its apply path: the apply loop hands over each position the FlushGate
/// released and goes on to its next batch; one request is in flight at a time, and a position released meanwhile
/// replaces any still waiting (the slot needs only the furthest, and confirming never goes backwards). Only released
/// positions are ever handed over, so the guarantee stays the FlushGate's: nothing the target could still lose is confirmed.
/// </summary>
internal sealed class Acknowledger : IAsyncDisposable
{
    // Capacity 1, dropping the oldest: a newer position replaces the one waiting, never the one being sent.
    private readonly Channel<string> _positions = Channel.CreateBounded<string>(
        new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropOldest, SingleReader = true, SingleWriter = true });

    private readonly CancellationTokenSource _stop;
    private readonly Task _sending;

    /// <param name="send">Sends one acknowledgement (its own failures are its to report: a refused one only delays the slot).</param>
    public Acknowledger(Func<string, CancellationToken, Task> send, CancellationToken ct)
    {
        _stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        _sending = Task.Run(() => SendAsync(send, _stop.Token), CancellationToken.None);
    }

    /// <summary>The target has flushed everything up to <paramref name="lsn"/>: acknowledged as soon as the request before it has been answered.</summary>
    public void Release(string lsn)
    {
        if (_sending.Exception?.InnerException is { } failure)
        {
            // Not a refusal (the sender reports those and goes on): the follower fails naming it rather than never confirming again.
            throw new InvalidOperationException($"Acknowledging the target's flushed positions failed: {failure.Message}", failure);
        }

        _positions.Writer.TryWrite(lsn);
    }

    private async Task SendAsync(Func<string, CancellationToken, Task> send, CancellationToken ct)
    {
        try
        {
            await foreach (var lsn in _positions.Reader.ReadAllAsync(ct))
            {
                await send(lsn, ct);
            }
        }
        catch (OperationCanceledException) when (ct.IsCancellationRequested)
        {
            // The follower stops: a position not yet sent is the target's stored LSN, where the next stream starts.
        }
    }

    /// <summary>Stops at once: a request in flight is cancelled, a waiting position dropped (the next stream starts from the stored LSN).</summary>
    public async ValueTask DisposeAsync()
    {
        _positions.Writer.TryComplete();
        await _stop.CancelAsync();
        // A sender that failed has said so at the next Release, or the follower is stopping anyway.
        await _sending.ContinueWith(_ => { }, TaskScheduler.Default);
        _stop.Dispose();
    }
}
