using System.Threading.Channels;
using SyncData.Shared;

namespace SyncDataSource.Replication;

/// <summary>
/// The decoded frames between the slot and the response: the decode loop gathers a transaction's frames and hands them
/// over whole at its commit (a heartbeat alone; a large transaction every <see cref="Run"/> frames) and reads on, while a
/// writer loop writes whatever has been handed over and flushes once nothing more waits: a burst of commits goes in one
/// flush, and reading the slot never waits on the response's flush. Handing over frame by frame woke the writer and
/// flushed once per frame (measured: both services' CPU and the lag's tail rose). A client that stops reading still
/// stops the decode loop, once <see cref="Capacity"/> hand-overs wait.
/// </summary>
internal sealed class FrameQueue
{
    private const int Run = 512;
    private const int Capacity = 16;

    private readonly Channel<List<ChangeFrame>> _runs = Channel.CreateBounded<List<ChangeFrame>>(
        new BoundedChannelOptions(Capacity) { SingleReader = true, SingleWriter = true });

    private readonly Task _writing;
    private List<ChangeFrame> _gathering = [];

    public FrameQueue(FrameWriter writer, CancellationToken ct) => _writing = Task.Run(() => WriteAsync(writer, ct), CancellationToken.None);

    public ValueTask AddAsync(ChangeFrame frame, CancellationToken ct)
    {
        _gathering.Add(frame);
        if (frame.Op is not (ChangeFrame.Commit or ChangeFrame.Heartbeat) && _gathering.Count < Run)
        {
            return ValueTask.CompletedTask;
        }

        var run = _gathering;
        _gathering = [];
        return _runs.Writer.TryWrite(run) ? ValueTask.CompletedTask : _runs.Writer.WriteAsync(run, ct);
    }

    private async Task WriteAsync(FrameWriter writer, CancellationToken ct)
    {
        var runs = _runs.Reader;
        try
        {
            while (await runs.WaitToReadAsync(ct))
            {
                while (runs.TryRead(out var run))
                {
                    foreach (var frame in run)
                    {
                        await writer.WriteAsync(frame, flushAtCommit: false, ct);
                    }
                }

                await writer.FlushAsync(ct);
            }
        }
        catch (Exception ex)
        {
            // The decode loop's next hand-over fails with it (ChannelClosedException, this inside).
            _runs.Writer.TryComplete(ex);
            throw;
        }
    }

    /// <summary>The stream ends: every frame handed over is written and flushed; the writer loop's failure, if any, thrown.</summary>
    public async Task DrainAsync()
    {
        _runs.Writer.TryComplete();
        await _writing;
    }

    /// <summary>The decode loop failed: waits for the writer loop to end (it may write no more once this returns), its own failure ignored.</summary>
    public async Task AbandonAsync()
    {
        _runs.Writer.TryComplete();
        await _writing.ContinueWith(_ => { }, TaskScheduler.Default);
    }
}
