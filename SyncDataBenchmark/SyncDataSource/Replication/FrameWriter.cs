using System.Buffers;
using System.IO.Pipelines;
using System.Text.Json;
using SyncData.Shared;

namespace SyncDataSource.Replication;

/// <summary>
/// The stream's frames onto the response, one JSON object a line, written straight into the response's pipe; flushed
/// every <see cref="FlushEvery"/> frames (a large transaction streams, never piles up) and at each commit, heartbeat and
/// the first copy's end, unless the caller flushes itself (the changes: <see cref="FrameQueue"/>).
/// </summary>
internal sealed class FrameWriter(HttpResponse response)
{
    private const int FlushEvery = 512;
    private readonly PipeWriter _pipe = response.BodyWriter;
    private Utf8JsonWriter? _json;
    private int _unflushed;

    public ValueTask WriteAsync(ChangeFrame frame, CancellationToken ct) => WriteAsync(frame, flushAtCommit: true, ct);

    /// <param name="flushAtCommit">False when the caller flushes itself (FrameQueue: once nothing more waits).</param>
    public async ValueTask WriteAsync(ChangeFrame frame, bool flushAtCommit, CancellationToken ct)
    {
        var json = _json ??= new Utf8JsonWriter(_pipe);
        JsonSerializer.Serialize(json, frame, SyncJsonContext.Default.ChangeFrame);
        json.Flush();
        json.Reset();
        _pipe.Write("\n"u8);
        if (++_unflushed >= FlushEvery || (flushAtCommit && frame.Op is ChangeFrame.Commit or ChangeFrame.Heartbeat or ChangeFrame.Copied))
        {
            await FlushAsync(ct);
        }
    }

    public async ValueTask FlushAsync(CancellationToken ct)
    {
        _unflushed = 0;
        await _pipe.FlushAsync(ct);
    }

    /// <summary>The failure as the stream's last frame (<see cref="ChangeFrame.Broken"/> when only the database went away), if the client can still read it.</summary>
    public async Task TryWriteFailureAsync(string error, bool databaseGone)
    {
        try
        {
            await WriteAsync(new ChangeFrame(databaseGone ? ChangeFrame.Broken : ChangeFrame.Failed, Error: error), CancellationToken.None);
            await FlushAsync(CancellationToken.None);
        }
        catch (Exception ex) when (ex is IOException or InvalidOperationException or OperationCanceledException)
        {
            // The client is gone: the aborted connection says it.
        }
    }
}
