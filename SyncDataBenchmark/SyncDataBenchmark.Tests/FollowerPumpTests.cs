using System.Runtime.CompilerServices;
using System.Threading.Channels;
using SomeService.Follow;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the follower's pump (stream frames into its read-ahead channel) ends when its token is cancelled, even
/// with the channel full and nobody reading: the state a follower stopped behind a locked target batch reaches under a
/// write load, where a pump that ignored the token held the follower's stop, and the service's, forever.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class FollowerPumpTests
{
    [Fact]
    public async Task A_cancelled_pump_ends_with_its_channel_full_and_unread()
    {
        var frames = Channel.CreateBounded<ChangeFrame>(1);
        using var reading = new CancellationTokenSource();
        var produced = 0;
        var pump = Follower.PumpAsync(frames.Writer, Endless(() => produced++, reading.Token), reading.Token);
        while (Volatile.Read(ref produced) < 2)
        {
            await Task.Yield();
        }

        await reading.CancelAsync();

        // A safety net, not a timing: the pump ends at once when it honours the token, never when it does not.
        await pump.WaitAsync(TimeSpan.FromMinutes(1));
        // The applier's side then sees the stream end as cancelled, once it reads the frame left.
        Assert.True(frames.Reader.TryRead(out _));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => frames.Reader.Completion);
    }

    /// <summary>A stream that never ends: a heartbeat frame whenever asked, as a source under write load.</summary>
    private static async IAsyncEnumerable<ChangeFrame> Endless(Action counted, [EnumeratorCancellation] CancellationToken ct)
    {
        while (true)
        {
            ct.ThrowIfCancellationRequested();
            counted();
            yield return new ChangeFrame(ChangeFrame.Heartbeat);
            await Task.Yield();
        }
    }
}
