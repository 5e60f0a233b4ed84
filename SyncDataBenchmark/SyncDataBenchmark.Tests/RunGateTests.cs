using SomeService.Sync;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>One run at a time, and a run that was answered never refuses the next one while it ends at the source.</summary>
[Trait("Tier", "Fast")]
public sealed class RunGateTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task A_run_not_yet_answered_refuses_the_next_at_once()
    {
        var gate = new RunGate();
        Assert.True(await gate.TryEnterAsync(new TaskCompletionSource().Task, Patience, CancellationToken.None));
        // Refused without waiting: the patience is a minute, and the answer is immediate.
        var next = gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None);
        Assert.True(next.IsCompleted);
        Assert.False(await next);
    }

    [Fact]
    public async Task A_follow_window_refuses_runs_at_once_and_a_run_refuses_it()
    {
        var gate = new RunGate();
        Assert.True(gate.TryHold());
        var run = gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None);
        Assert.True(run.IsCompleted);
        Assert.False(await run);
        gate.Leave();
        Assert.True(await gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None));
        Assert.False(gate.TryHold());
    }

    [Fact]
    public async Task The_next_run_waits_for_an_answered_run_and_enters_when_it_leaves()
    {
        var gate = new RunGate();
        Assert.True(await gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None));
        var next = gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None);
        Assert.False(next.IsCompleted);
        gate.Leave();
        Assert.True(await next);
    }

    [Fact]
    public async Task An_answered_run_that_never_leaves_refuses_the_next_after_the_patience()
    {
        var gate = new RunGate();
        Assert.True(await gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None));
        Assert.False(await gate.TryEnterAsync(Task.CompletedTask, TimeSpan.FromMilliseconds(50), CancellationToken.None));
    }

    /// <summary>
    /// The race stop 59's CI met: the next request arrives while the answered run leaves. Whatever the interleaving, it
    /// enters; none is timed, so a busy machine changes only which interleavings occur.
    /// </summary>
    [Fact]
    public async Task A_request_arriving_while_an_answered_run_leaves_always_enters()
    {
        var gate = new RunGate();
        for (var i = 0; i < 20_000; i++)
        {
            Assert.True(await gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None));
            using var start = new Barrier(2);
            var leaving = Task.Run(() =>
            {
                start.SignalAndWait();
                gate.Leave();
            });
            start.SignalAndWait();
            Assert.True(await gate.TryEnterAsync(Task.CompletedTask, Patience, CancellationToken.None), $"refused at attempt {i}");
            await leaving;
            gate.Leave();
        }
    }
}
