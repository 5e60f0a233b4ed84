using System.Diagnostics.Metrics;
using SomeService.Sync;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the raw relays' tuple counter, fed the committed COPY fixtures in reads cut anywhere, passes every byte
/// through unchanged and counts exactly the tuples; bytes that are not binary COPY pass through too, uncounted and
/// without an error of its own (the writer and PostgreSQL refuse them).
/// </summary>
[Trait("Tier", "Fast")]
public sealed class CopyTupleCountingStreamTests
{
    private static byte[] Fixture(string name) => File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Fixtures", name));

    [Theory]
    [InlineData("users-3.bin", 1, 3)]
    [InlineData("users-3.bin", 7, 3)]
    [InlineData("users-3.bin", int.MaxValue, 3)]
    [InlineData("users-long-name.bin", 1, 1)]
    [InlineData("users-long-name.bin", 4096, 1)]
    public async Task Every_tuple_is_counted_and_every_byte_passes_through(string fixture, int chunk, long tuples)
    {
        var bytes = Fixture(fixture);

        var (passed, counted) = await RelayAsync(bytes, chunk);

        Assert.Equal(bytes, passed);
        Assert.Equal(tuples, counted);
    }

    [Fact]
    public async Task A_stream_cut_before_the_trailer_counts_the_tuples_begun()
    {
        var bytes = Fixture("users-3.bin");

        Assert.Equal(3, (await RelayAsync(bytes[..^2], chunk: 5)).Counted);
        Assert.Equal(0, (await RelayAsync(bytes[..19], chunk: 5)).Counted);
    }

    [Fact]
    public async Task Bytes_that_are_not_binary_copy_pass_through_uncounted()
    {
        var garbage = "id,name\n1,not binary COPY\n"u8.ToArray();

        var (passed, counted) = await RelayAsync(garbage, chunk: 3);

        Assert.Equal(garbage, passed);
        Assert.Equal(0, counted);
    }

    private static async Task<(byte[] Passed, long Counted)> RelayAsync(byte[] bytes, int chunk)
    {
        using var meter = new Meter($"test-{Guid.NewGuid()}");
        var instrument = meter.CreateCounter<long>("rows");
        long counted = 0;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (published, l) =>
        {
            if (published == instrument)
            {
                l.EnableMeasurementEvents(published);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, _, _) => counted += value);
        listener.Start();

        var passed = new MemoryStream();
        await using (var counting = new CopyTupleCountingStream(new ChunkedStream(bytes, chunk), new RowCounter(instrument, [])))
        {
            await counting.CopyToAsync(passed);
        }

        return (passed.ToArray(), counted);
    }

    /// <summary>Returns at most <c>chunk</c> bytes per read.</summary>
    private sealed class ChunkedStream(byte[] bytes, int chunk) : MemoryStream(bytes, writable: false)
    {
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(chunk, buffer.Length)], cancellationToken);
    }
}
