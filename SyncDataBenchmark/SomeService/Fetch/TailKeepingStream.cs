using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// Passes reads through and, once the first byte of <see cref="SourceFailure.Marker"/> has gone by, keeps what follows,
/// so that when a body turns out malformed the consumer can report the source's own explanation. That byte is an
/// ASCII record separator, which valid JSON never contains raw, so a healthy body is only scanned, never copied: the
/// copying happens on the failure path alone.
/// </summary>
internal sealed class TailKeepingStream(Stream inner) : ReadOnlyBodyStream(inner)
{
    private static readonly byte MarkerStart = (byte)SourceFailure.Marker[0];
    private const int Capacity = 4096;
    private byte[]? _kept;
    private int _length;

    /// <summary>The bytes from the marker's first byte on (up to a few KiB); empty while the body is healthy.</summary>
    public ReadOnlySpan<byte> Tail => _kept.AsSpan(0, _length);

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var read = await Inner.ReadAsync(buffer, cancellationToken);
        Watch(buffer.Span[..read]);
        return read;
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        var read = Inner.Read(buffer, offset, count);
        Watch(buffer.AsSpan(offset, read));
        return read;
    }

    /// <summary>
    /// The source's explanation after <see cref="SourceFailure.Marker"/>, if the marker has arrived. The reader may have
    /// stopped at the marker's first byte before the rest of its line arrived, so this reads on (a few KiB at most,
    /// until the line ends or the body does) before looking.
    /// </summary>
    public async Task<string?> FindSourceExplanationAsync(CancellationToken ct)
    {
        if (_kept is null)
        {
            return null;
        }

        var more = new byte[1024];
        for (var i = 0; i < 8 && _length < Capacity && Tail.IndexOf((byte)'\n') < 0; i++)
        {
            int read;
            try
            {
                read = await Inner.ReadAsync(more, ct);
            }
            catch (Exception ex) when (ex is IOException or SourceStreamException)
            {
                break;
            }

            if (read == 0)
            {
                break;
            }

            Watch(more.AsSpan(0, read));
        }

        return SourceFailure.FindExplanation(Tail);
    }

    private void Watch(ReadOnlySpan<byte> data)
    {
        if (_kept is null)
        {
            var at = data.IndexOf(MarkerStart);
            if (at < 0)
            {
                return;
            }

            _kept = new byte[Capacity];
            data = data[at..];
        }

        var take = Math.Min(Capacity - _length, data.Length);
        data[..take].CopyTo(_kept.AsSpan(_length));
        _length += take;
    }

    public override ValueTask DisposeAsync() => Inner.DisposeAsync();
}
