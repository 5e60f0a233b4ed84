namespace SomeService.Fetch;

/// <summary>
/// Passes reads through and keeps the last bytes read, so that when a body turns out malformed the consumer can
/// look for the source's own explanation (<see cref="SyncData.Shared.SourceFailure"/>) at its end.
/// </summary>
internal sealed class TailKeepingStream(Stream inner) : Stream
{
    private const int Capacity = 4096;
    private readonly byte[] _tail = new byte[Capacity * 2];
    private int _length;

    /// <summary>The last bytes read (up to a few KiB).</summary>
    public ReadOnlySpan<byte> Tail => _tail.AsSpan(0, _length);

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var read = await inner.ReadAsync(buffer, cancellationToken);
        Keep(buffer.Span[..read]);
        return read;
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        var read = inner.Read(buffer, offset, count);
        Keep(buffer.AsSpan(offset, read));
        return read;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    private void Keep(ReadOnlySpan<byte> data)
    {
        if (data.Length >= Capacity)
        {
            data[^Capacity..].CopyTo(_tail);
            _length = Capacity;
            return;
        }

        if (_length + data.Length > _tail.Length)
        {
            // Keep the newest Capacity bytes, then append.
            var keep = Math.Min(_length, Capacity);
            _tail.AsSpan(_length - keep, keep).CopyTo(_tail);
            _length = keep;
        }

        data.CopyTo(_tail.AsSpan(_length));
        _length += data.Length;
    }

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    public override ValueTask DisposeAsync() => inner.DisposeAsync();
}
