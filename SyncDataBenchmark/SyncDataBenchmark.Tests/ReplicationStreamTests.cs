using System.IO.Pipelines;
using System.Text;
using SomeService.Fetch;
using SomeService.Follow;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the follower's reading of SyncDataSource's stream (ReplicationStream.FramesAsync, the frames parsed
/// straight from the body's UTF-8): each frame comes as soon as its line has arrived, not when the next one does (a
/// transaction's lag would otherwise wait for the next write or heartbeat); a body that ends, cleanly or mid-frame, is a
/// broken stream the follower reopens (an IOException inside).
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ReplicationStreamTests
{
    [Fact]
    public async Task Each_frame_comes_as_soon_as_its_line_has_arrived()
    {
        var pipe = new Pipe();
        await using var frames = ReplicationStream.FramesAsync(pipe.Reader.AsStream(), "users", CancellationToken.None).GetAsyncEnumerator();
        await WriteAsync(pipe, """{"op":"i","values":["1","a"]}""" + "\n");

        // A safety net, not a timing: the frame comes at once, or never while no further line is written.
        Assert.True(await frames.MoveNextAsync().AsTask().WaitAsync(TimeSpan.FromMinutes(1)));
        Assert.Equal((ChangeFrame.Insert, "a"), (frames.Current.Op, frames.Current.Values![1]));

        await WriteAsync(pipe, """{"op":"c","lsn":"0/16B3748","committedAt":"2026-11-29T16:00:00+00:00"}""" + "\n");
        Assert.True(await frames.MoveNextAsync().AsTask().WaitAsync(TimeSpan.FromMinutes(1)));
        Assert.Equal(("0/16B3748", true), (frames.Current.Lsn, frames.Current.ReadAt is not null));
    }

    [Theory]
    [InlineData("")]
    [InlineData("""{"op":"i","values":["1",""" )]
    public async Task A_body_that_ends_cleanly_or_mid_frame_is_a_broken_stream(string last)
    {
        var pipe = new Pipe();
        await WriteAsync(pipe, """{"op":"h","lsn":"0/1"}""" + "\n" + last);
        await pipe.Writer.CompleteAsync();
        await using var frames = ReplicationStream.FramesAsync(pipe.Reader.AsStream(), "users", CancellationToken.None).GetAsyncEnumerator();

        Assert.True(await frames.MoveNextAsync());
        var broken = await Assert.ThrowsAsync<SourceStreamException>(async () => await frames.MoveNextAsync());
        Assert.IsType<IOException>(broken.InnerException);
    }

    private static async Task WriteAsync(Pipe pipe, string text)
    {
        await pipe.Writer.WriteAsync(Encoding.UTF8.GetBytes(text));
        await pipe.Writer.FlushAsync();
    }
}
