using SomeService.Fetch;

namespace SomeService.Sync;

/// <summary>
/// Passes a PostgreSQL binary COPY stream through untouched and counts its tuples on the way, chunk by chunk:
/// <see cref="BinaryCopyFraming"/> reads the framing and skips the fields' bytes; nothing is copied or buffered. A
/// malformed stream is not its business (the writer and the verification catch that); it just stops counting.
/// </summary>
internal sealed class CopyTupleCountingStream(Stream inner, RowCounter rows) : Stream
{
    private readonly BinaryCopyFraming _framing = new(columns: null, reportsFields: false);

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var read = await inner.ReadAsync(buffer, cancellationToken);
        Scan(buffer.Span[..read]);
        return read;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(Span<byte> buffer)
    {
        var read = inner.Read(buffer);
        Scan(buffer[..read]);
        return read;
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    private void Scan(ReadOnlySpan<byte> data)
    {
        var at = 0;
        while (true)
        {
            switch (_framing.Next(data, ref at, out _))
            {
                case BinaryCopyFraming.Token.Tuple:
                    rows.Add(1);
                    break;
                case BinaryCopyFraming.Token.Trailer:
                    rows.Flush();
                    return;
                default:
                    return; // More, or a fault: counting stops there
            }
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            rows.Flush();
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    public override async ValueTask DisposeAsync()
    {
        rows.Flush();
        await inner.DisposeAsync();
        await base.DisposeAsync();
    }

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => inner.Position; set => throw new NotSupportedException(); }
    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
