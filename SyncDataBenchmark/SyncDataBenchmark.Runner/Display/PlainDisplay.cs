using System.Diagnostics;

namespace SyncDataBenchmark.Runner;

/// <summary>One line per event, nothing redrawn: readable in a log file.</summary>
public sealed class PlainDisplay(int repeat) : IBenchDisplay
{
    public void Say(string text) => Console.WriteLine(text);

    public async Task RunAsync(IReadOnlyList<PlanItem> jobs, Func<PlanItem, CancellationToken, Task<ItemOutcome>> execute, CancellationToken ct,
        Func<IReadOnlyList<PlanItem>, string>? status = null)
    {
        var total = Stopwatch.StartNew();
        foreach (var job in jobs)
        {
            var left = status?.Invoke([.. jobs.Skip(job.Index)]) is { } s ? $" · {s}" : "";
            Console.WriteLine($"[{job.Index + 1}/{jobs.Count}] {job.Title} {job.RunLabel(repeat)}{left}");
            var outcome = await Heartbeat.RunAsync($"{job.Title} {job.RunLabel(repeat)} still running", () => execute(job, ct), Say);
            Console.WriteLine($"    {(outcome.Ok ? "ok" : "FAILED")} {job.Title} {job.RunLabel(repeat)}: {outcome.Text}");
        }

        Console.WriteLine($"All {jobs.Count} runs done in {Estimator.Format(total.Elapsed)}.");
    }
}
