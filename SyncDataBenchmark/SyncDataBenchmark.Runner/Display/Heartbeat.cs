using System.Diagnostics;

namespace SyncDataBenchmark.Runner;

/// <summary>A long step (seeding 10M rows, a run of minutes) says it is still going, so a log is never silent for long.</summary>
public static class Heartbeat
{
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(30);

    public static async Task<T> RunAsync<T>(string what, Func<Task<T>> work, Action<string> say, TimeSpan? interval = null)
    {
        var every = interval ?? Interval;
        var clock = Stopwatch.StartNew();
        var task = work();
        while (await Task.WhenAny(task, Task.Delay(every)) != task)
        {
            say($"    … {what}: {Estimator.Format(clock.Elapsed)} so far");
        }

        return await task;
    }

    public static Task RunAsync(string what, Func<Task> work, Action<string> say, TimeSpan? interval = null) =>
        RunAsync(what, async () => { await work(); return true; }, say, interval);
}
