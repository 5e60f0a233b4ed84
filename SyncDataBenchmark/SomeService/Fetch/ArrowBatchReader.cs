using System.Runtime.CompilerServices;
using Apache.Arrow;
using Apache.Arrow.Ipc;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// Record batches out of an Arrow IPC stream body, as they arrive. Apache.Arrow's reader takes a body that simply stops
/// between two messages (even inside a length prefix) for the end, so this requires what the format writes at the end:
/// the end-of-stream marker (continuation, then length 0), read as the last bytes before the reader stopped, and
/// nothing after it but, when the source failed after the stream began, <see cref="SourceFailure.Marker"/> and its
/// reason, which the source writes after the end-of-stream marker (so no Arrow reader takes it for a message).
/// </summary>
internal static class ArrowBatchReader
{
    private static readonly byte[] EndOfStream = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0];

    private const int ExplanationBytes = 4096;

    /// <param name="mismatch">How the stream's schema differs from the table's (null: it does not).</param>
    public static async IAsyncEnumerable<RecordBatch> ReadAsync(Stream body, string what, Func<Schema, string?> mismatch, [EnumeratorCancellation] CancellationToken ct)
    {
        var watched = new EndWatchingStream(body);
        using var reader = new ArrowStreamReader(watched, leaveOpen: true);
        long rows = 0;
        while (true)
        {
            RecordBatch? batch;
            try
            {
                batch = await reader.ReadNextRecordBatchAsync(ct);
            }
            catch (Exception ex) when (ex is not (SourceStreamException or OperationCanceledException))
            {
                throw new SourceStreamException($"SyncDataSource's {what} is not a readable Arrow IPC stream after {rows:N0} rows: {ex.GetType().Name}: {ex.Message}", ex);
            }

            if (batch is null)
            {
                await EnsureEndedAsync(watched, what, rows, ct);
                yield break;
            }

            if (rows == 0 && mismatch(batch.Schema) is { } different)
            {
                batch.Dispose();
                throw new SourceStreamException($"SyncDataSource's {what}: {different}.");
            }

            rows += batch.Length;
            yield return batch;
        }
    }

    /// <summary>The reader stopped: at the end-of-stream marker with nothing after it, or the stream failed and this says why.</summary>
    private static async Task EnsureEndedAsync(EndWatchingStream watched, string what, long rows, CancellationToken ct)
    {
        if (watched.EndOfBody || !watched.Last.SequenceEqual(EndOfStream))
        {
            throw new SourceStreamException(
                $"SyncDataSource's {what} ended without Arrow's end-of-stream marker after {rows:N0} rows ({watched.Position:N0} bytes): the source stopped mid-stream.");
        }

        var after = new byte[ExplanationBytes];
        var read = await watched.ReadAtLeastAsync(after, after.Length, throwOnEndOfStream: false, ct);
        if (read > 0)
        {
            var why = SourceFailure.FindExplanation(after.AsSpan(0, read));
            throw new SourceStreamException(why is null
                ? $"SyncDataSource's {what} goes on after Arrow's end-of-stream marker ({rows:N0} rows): the body is not one Arrow IPC stream."
                : $"SyncDataSource's {what} broke after {rows:N0} rows: {why}");
        }
    }

    /// <summary>Passes reads through, keeping the last 8 bytes read and whether the body has ended (a read of 0 bytes).</summary>
    private sealed class EndWatchingStream(Stream inner) : ReadOnlyBodyStream(inner)
    {
        private readonly byte[] _last = new byte[8];
        private long _read;

        public ReadOnlySpan<byte> Last => _last;

        public bool EndOfBody { get; private set; }

        public override long Position { get => _read; set => throw new NotSupportedException(); }

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            var read = await Inner.ReadAsync(buffer, cancellationToken);
            Watch(buffer.Span[..read], buffer.Length);
            return read;
        }

        public override int Read(byte[] buffer, int offset, int count)
        {
            var read = Inner.Read(buffer, offset, count);
            Watch(buffer.AsSpan(offset, read), count);
            return read;
        }

        private void Watch(ReadOnlySpan<byte> data, int asked)
        {
            _read += data.Length;
            if (data.Length == 0)
            {
                EndOfBody |= asked > 0;
                return;
            }

            if (data.Length >= _last.Length)
            {
                data[^_last.Length..].CopyTo(_last);
                return;
            }

            _last.AsSpan(data.Length).CopyTo(_last);
            data.CopyTo(_last.AsSpan(_last.Length - data.Length));
        }

        public override ValueTask DisposeAsync() => Inner.DisposeAsync();
    }
}
