using SomeService.Fetch;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The consumer must notice a cut COPY stream by itself: after the headers, a source failure can still end the
/// body "cleanly". Real bytes from the running source, cut at every kind of place.
/// </summary>
[Collection(MatrixCollection.Name)]
public sealed class BinaryCopyReaderTests(MatrixLab lab)
{
    [Fact]
    public async Task The_whole_stream_yields_every_row()
    {
        var bytes = await lab.SourceClient.GetByteArrayAsync("users/copy");

        Assert.Equal(MatrixLab.Rows, await CountAsync(bytes));
    }

    [Theory]
    [InlineData(0)]          // nothing at all
    [InlineData(5)]          // inside the signature
    [InlineData(19)]         // header complete, no tuple
    [InlineData(1_000)]      // mid-tuple
    [InlineData(-2)]         // everything but the trailer
    [InlineData(-1)]         // half the trailer
    public async Task A_stream_cut_anywhere_before_the_trailer_is_an_error(int cut)
    {
        var bytes = await lab.SourceClient.GetByteArrayAsync("users/copy");
        var length = cut >= 0 ? cut : bytes.Length + cut;

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => CountAsync(bytes[..length]));
        Assert.Contains("without its trailer", error.Message);
    }

    [Fact]
    public async Task A_stream_cut_at_a_tuple_boundary_is_an_error_too()
    {
        var bytes = await lab.SourceClient.GetByteArrayAsync("users/copy");
        // Header: 11-byte signature + flags + extension length; then tuples of 6 length-prefixed fields.
        var boundary = 19;
        for (var tuple = 0; tuple < 100; tuple++)
        {
            boundary += 2;
            for (var field = 0; field < 6; field++)
            {
                boundary += 4 + System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(boundary));
            }
        }

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => CountAsync(bytes[..boundary]));
        Assert.Contains("after 100 rows", error.Message);
    }

    [Fact]
    public async Task Bytes_that_are_not_binary_copy_are_refused()
    {
        var json = await lab.SourceClient.GetByteArrayAsync("users/offset?offset=0&limit=10");

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => CountAsync(json));
        Assert.Contains("not PostgreSQL binary COPY", error.Message);
    }

    private static async Task<long> CountAsync(byte[] bytes)
    {
        long rows = 0;
        // A tiny-chunk stream makes every field straddle reads at some point.
        await using var stream = new ChunkedStream(bytes, chunk: 7);
        await foreach (var _ in BinaryCopyReader.ReadUsersAsync(stream, CancellationToken.None))
        {
            rows++;
        }

        return rows;
    }

    /// <summary>Returns at most <c>chunk</c> bytes per read, as a slow network would.</summary>
    private sealed class ChunkedStream(byte[] bytes, int chunk) : MemoryStream(bytes, writable: false)
    {
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(chunk, buffer.Length)], cancellationToken);
    }
}
