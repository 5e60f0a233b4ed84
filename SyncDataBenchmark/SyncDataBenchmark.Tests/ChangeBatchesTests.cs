using System.Threading.Channels;
using SomeService.Follow;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: how the follower cuts its batches (ChangeBatches). A follower catching up on a backlog (its transactions
/// committed long ago) gathers on when the channel runs empty for a moment, instead of applying each transaction alone
/// as the frames trickle in; a follower that is not behind applies what it holds at once (its lag). No timing is asserted:
/// the wait is minutes, so only a cut that ignores it can end the first case early, and the second ends only by cutting.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ChangeBatchesTests
{
    private static readonly TimeSpan Long = TimeSpan.FromMinutes(10);

    [Fact]
    public async Task A_follower_catching_up_gathers_the_transactions_that_trickle_in_into_one_batch()
    {
        var frames = Channel.CreateUnbounded<ChangeFrame>();
        var batches = new ChangeBatches(frames.Reader, [0], batchSize: 2, gatherWait: Long);
        var committed = DateTimeOffset.UtcNow.AddHours(-1);
        var next = batches.NextAsync(() => false, _ => Task.CompletedTask, CancellationToken.None);
        Transaction(frames.Writer, "1", committed);
        // The first transaction read, the channel empty: a cut that does not wait for more returns it alone now.
        while (frames.Reader.Count > 0)
        {
            await Task.Yield();
        }

        await Task.Delay(200);
        Transaction(frames.Writer, "2", committed);

        var batch = await next.WaitAsync(TimeSpan.FromMinutes(1));
        Assert.Equal((2, 2L), (batch.Transactions, batch.Changes));
    }

    [Fact]
    public async Task A_follower_that_is_not_behind_applies_each_transaction_as_soon_as_nothing_more_waits()
    {
        var frames = Channel.CreateUnbounded<ChangeFrame>();
        var batches = new ChangeBatches(frames.Reader, [0], batchSize: 2, gatherWait: Long);
        Transaction(frames.Writer, "1", DateTimeOffset.UtcNow.AddHours(1));

        // A safety net, not a timing: the batch comes at once when cut, after ten minutes when the follower waits.
        var batch = await batches.NextAsync(() => false, _ => Task.CompletedTask, CancellationToken.None).WaitAsync(TimeSpan.FromMinutes(1));
        Assert.Equal((1, 1L), (batch.Transactions, batch.Changes));
    }

    /// <summary>A source transaction of one insert, committed at <paramref name="committed"/>.</summary>
    private static void Transaction(ChannelWriter<ChangeFrame> frames, string key, DateTimeOffset committed)
    {
        Assert.True(frames.TryWrite(new ChangeFrame(ChangeFrame.Insert, [key, "value"])));
        Assert.True(frames.TryWrite(new ChangeFrame(ChangeFrame.Commit, Lsn: "0/1", CommittedAt: committed)));
    }
}
