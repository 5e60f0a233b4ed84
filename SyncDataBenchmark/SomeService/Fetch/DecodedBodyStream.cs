using System.IO.Compression;

namespace SomeService.Fetch;

/// <summary>
/// A fetch response's body as the consumer reads it: decoded according to its Content-Encoding, with the bytes
/// counted on both sides of the decoder (<see cref="ConsumerRun"/>). The decoder reads the raw body through the caller's
/// stream (the idle timeout's), so a stall or a broken connection is still named there; a body the decoder cannot
/// decode is named here as the source's, never mistaken for the target's failure.
/// </summary>
internal sealed class DecodedBodyStream : ReadOnlyBodyStream
{
    private readonly ConsumerRun _run;
    private readonly string _coding;

    private DecodedBodyStream(Stream decoded, ConsumerRun run, string coding) : base(decoded)
    {
        _run = run;
        _coding = coding;
    }

    /// <summary>Wraps <paramref name="raw"/> (which it then owns) for a body that arrived with <paramref name="coding"/> (null: none).</summary>
    public static Stream Open(Stream raw, string? coding, ConsumerRun run)
    {
        var counted = new WireCountingStream(raw, run);
        Stream decoded = coding switch
        {
            "gzip" => new GZipStream(counted, CompressionMode.Decompress),
            "br" => new BrotliStream(counted, CompressionMode.Decompress),
            null => counted,
            _ => throw new ArgumentOutOfRangeException(nameof(coding), coding, "not a coding SomeService asks for"),
        };
        return new DecodedBodyStream(decoded, run, coding ?? "identity");
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        try
        {
            var read = await Inner.ReadAsync(buffer, cancellationToken);
            _run.AddBody(read);
            return read;
        }
        catch (InvalidDataException ex)
        {
            throw Undecodable(ex);
        }
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        try
        {
            var read = Inner.Read(buffer, offset, count);
            _run.AddBody(read);
            return read;
        }
        catch (InvalidDataException ex)
        {
            throw Undecodable(ex);
        }
    }

    private SourceStreamException Undecodable(InvalidDataException ex) =>
        new($"SyncDataSource's {_coding} body could not be decoded after {_run.WireBytes:N0} bytes on the wire: {ex.Message}", ex);

    /// <summary>Counts the raw (wire) bytes under the decoder.</summary>
    private sealed class WireCountingStream(Stream inner, ConsumerRun run) : ReadOnlyBodyStream(inner)
    {
        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            var read = await Inner.ReadAsync(buffer, cancellationToken);
            run.AddWire(read);
            return read;
        }

        public override int Read(byte[] buffer, int offset, int count)
        {
            var read = Inner.Read(buffer, offset, count);
            run.AddWire(read);
            return read;
        }
    }
}
