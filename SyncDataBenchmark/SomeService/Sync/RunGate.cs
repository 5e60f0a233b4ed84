using System.Diagnostics;

namespace SomeService.Sync;

/// <summary>
/// One sync run, or one follow window, at a time. A request that finds the gate taken is refused at once, unless the
/// run holding it has been answered and is only ending at the source: then it waits for the gate, up to a patience.
/// Whether the gate is taken and whether its run was answered are one state under one lock: a run that leaves clears
/// both at once, so a request arriving as it leaves never sees a gate taken by no run (stop 59's CI: a 409 for a run
/// already over, when the state was cleared a moment before the gate was released).
/// </summary>
public sealed class RunGate
{
    private readonly Lock _lock = new();
    private bool _taken;
    private Task? _answered;
    private TaskCompletionSource _left = NewLeft();

    /// <summary>Takes the gate for a run that will complete <paramref name="answered"/> when it is answered; false if refused.</summary>
    public async Task<bool> TryEnterAsync(Task answered, TimeSpan patience, CancellationToken ct)
    {
        var start = Stopwatch.GetTimestamp();
        while (true)
        {
            Task left;
            lock (_lock)
            {
                if (!_taken)
                {
                    (_taken, _answered) = (true, answered);
                    return true;
                }

                if (_answered is not { IsCompleted: true })
                {
                    return false;
                }

                left = _left.Task;
            }

            var remaining = patience - Stopwatch.GetElapsedTime(start);
            if (remaining <= TimeSpan.Zero || !await Completes(left, remaining, ct))
            {
                return false;
            }
        }
    }

    /// <summary>Takes the gate for a follow window, which no request waits for; false if it is taken.</summary>
    public bool TryHold()
    {
        lock (_lock)
        {
            if (_taken)
            {
                return false;
            }

            (_taken, _answered) = (true, null);
            return true;
        }
    }

    /// <summary>Releases the gate a run or a hold took, and wakes the requests waiting for it.</summary>
    public void Leave()
    {
        TaskCompletionSource left;
        lock (_lock)
        {
            if (!_taken)
            {
                throw new InvalidOperationException("The run gate was left without being taken.");
            }

            (_taken, _answered, left, _left) = (false, null, _left, NewLeft());
        }

        left.SetResult();
    }

    private static async Task<bool> Completes(Task task, TimeSpan within, CancellationToken ct)
    {
        try
        {
            await task.WaitAsync(within, ct);
            return true;
        }
        catch (TimeoutException)
        {
            return false;
        }
    }

    private static TaskCompletionSource NewLeft() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
