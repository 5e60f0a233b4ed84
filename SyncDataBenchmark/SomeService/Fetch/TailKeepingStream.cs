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

    /// <summary>
    /// The source's explanation after <see cref="SyncData.Shared.SourceFailure.Marker"/>, if the tail holds the marker.
    /// The reader may have stopped at the marker's first byte before the rest of its line arrived, so this reads on
    /// (a few KiB at most, until the line ends or the body does) before looking.
    /// </summary>
    public async Task<string?> FindSourceExplanationAsync(CancellationToken ct)
    {
        var start = Tail.IndexOf((byte)SyncData.Shared.SourceFailure.Marker[0]);
        if (start < 0)
        {
            return null;
        }

        var more = new byte[1024];
        for (var i = 0; i < 8 && Tail[start..].IndexOf((byte)'\n') < 0; i++)
        {
            int read;
            try
            {
                read = await inner.ReadAsync(more, ct);
            }
            catch (Exception ex) when (ex is IOException or SomeService.Fetch.SourceStreamException)
            {
                break;
            }

            if (read == 0)
            {
                break;
            }

            Keep(more.AsSpan(0, read));
            start = Tail.IndexOf((byte)SyncData.Shared.SourceFailure.Marker[0]);
        }

        return SyncData.Shared.SourceFailure.FindExplanation(Tail);
    }

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
