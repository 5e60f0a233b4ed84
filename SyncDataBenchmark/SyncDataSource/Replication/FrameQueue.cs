using System.Threading.Channels;
using SyncData.Shared;

namespace SyncDataSource.Replication;

/// <summary>
/// The decoded frames between the slot and the response: the decode loop hands each frame over and reads on, while a
/// writer loop writes whatever has arrived and flushes once nothing more waits, so a burst of commits goes in one flush
/// and reading the slot never waits on the response's flush (an HTTP/2 stream's flush waits for Kestrel's connection
/// writer). A client that stops reading still stops the decode loop, once <see cref="Capacity"/> frames wait.
/// </summary>
internal sealed class FrameQueue
{
    private const int Capacity = 1_000;

    private readonly Channel<ChangeFrame> _frames = Channel.CreateBounded<ChangeFrame>(
        new BoundedChannelOptions(Capacity) { SingleReader = true, SingleWriter = true });

    private readonly Task _writing;

    public FrameQueue(FrameWriter writer, CancellationToken ct) => _writing = Task.Run(() => WriteAsync(writer, ct), CancellationToken.None);

    public ValueTask AddAsync(ChangeFrame frame, CancellationToken ct) =>
        _frames.Writer.TryWrite(frame) ? ValueTask.CompletedTask : _frames.Writer.WriteAsync(frame, ct);

    private async Task WriteAsync(FrameWriter writer, CancellationToken ct)
    {
        var frames = _frames.Reader;
        try
        {
            while (await frames.WaitToReadAsync(ct))
            {
                while (frames.TryRead(out var frame))
                {
                    await writer.WriteAsync(frame, flushAtCommit: false, ct);
                }

                await writer.FlushAsync(ct);
            }
        }
        catch (Exception ex)
        {
            // The decode loop's next hand-over fails with it (ChannelClosedException, this inside).
            _frames.Writer.TryComplete(ex);
            throw;
        }
    }

    /// <summary>The stream ends: every frame handed over is written and flushed; the writer loop's failure, if any, thrown.</summary>
    public async Task DrainAsync()
    {
        _frames.Writer.TryComplete();
        await _writing;
    }

    /// <summary>The decode loop failed: waits for the writer loop to end (it may write no more once this returns), its own failure ignored.</summary>
    public async Task AbandonAsync()
    {
        _frames.Writer.TryComplete();
        await _writing.ContinueWith(_ => { }, TaskScheduler.Default);
    }
}
