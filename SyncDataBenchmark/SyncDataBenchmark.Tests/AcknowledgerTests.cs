using System.Collections.Concurrent;
using SomeService.Follow;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the follower's acknowledgements off its apply path (Acknowledger): releasing a position never waits for
/// the request before it; positions released while one is in flight are replaced by the newest, which is sent next;
/// every position sent was released, in order; nothing is sent once it is disposed. Which positions may be released at
/// all is the FlushGate's (FlushGateTests, ReplicationTests' target crash test).
/// </summary>
[Trait("Tier", "Fast")]
public sealed class AcknowledgerTests
{
    [Fact]
    public async Task Positions_released_while_one_is_in_flight_collapse_to_the_newest()
    {
        var sent = new ConcurrentQueue<string>();
        var first = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var answer = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var second = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        async Task Send(string lsn, CancellationToken ct)
        {
            sent.Enqueue(lsn);
            if (sent.Count == 1)
            {
                first.TrySetResult();
                await answer.Task.WaitAsync(ct);   // the source has not answered yet
            }
            else
            {
                second.TrySetResult();
            }
        }

        await using (var acknowledger = new Acknowledger(Send, CancellationToken.None))
        {
            acknowledger.Release("0/10");
            await first.Task.WaitAsync(TimeSpan.FromSeconds(30));

            // Each returns at once although the request before is unanswered: the apply loop goes on.
            acknowledger.Release("0/20");
            acknowledger.Release("0/30");
            acknowledger.Release("0/40");
            answer.SetResult();
            await second.Task.WaitAsync(TimeSpan.FromSeconds(30));
        }

        Assert.Equal(new[] { "0/10", "0/40" }, sent);
    }

    [Fact]
    public async Task Nothing_is_sent_once_disposed_and_a_request_in_flight_is_cancelled()
    {
        var sent = new ConcurrentQueue<string>();
        var inFlight = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var cancelled = false;
        async Task Send(string lsn, CancellationToken ct)
        {
            sent.Enqueue(lsn);
            inFlight.TrySetResult();
            try
            {
                await Task.Delay(Timeout.Infinite, ct);
            }
            catch (OperationCanceledException)
            {
                cancelled = true;
                throw;
            }
        }

        var acknowledger = new Acknowledger(Send, CancellationToken.None);
        acknowledger.Release("0/10");
        await inFlight.Task.WaitAsync(TimeSpan.FromSeconds(30));
        acknowledger.Release("0/20");
        await acknowledger.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));

        Assert.True(cancelled);
        Assert.Equal(new[] { "0/10" }, sent);
    }
}
