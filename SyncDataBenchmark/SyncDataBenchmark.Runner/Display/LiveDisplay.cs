using System.Diagnostics;
using Spectre.Console;
using Spectre.Console.Rendering;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>Spectre.Console progress: the current case and run, its own elapsed time, overall elapsed and what is left.</summary>
public sealed class LiveDisplay(int repeat) : IBenchDisplay
{
    private const string JobStartKey = "jobStart";
    private const string ExpectedKey = "expected";
    private const string AfterKey = "after";
    private const string UnknownKey = "unknown";
    /// <summary>Below this many columns the progress line drops the bar and the elapsed column.</summary>
    private const int NarrowWidth = 120;

    public void Say(string text) => AnsiConsole.MarkupLine($"[grey]{Markup.Escape(text)}[/]");

    public async Task RunAsync(IReadOnlyList<PlanItem> jobs, Func<PlanItem, CancellationToken, Task<ItemOutcome>> execute, CancellationToken ct,
        Func<string, TimeSpan?>? prior = null)
    {
        var estimator = new Estimator(prior);
        // At 80 columns the bar and the elapsed column would squeeze the description into 7-character pieces.
        var narrow = AnsiConsole.Profile.Width < NarrowWidth;
        ProgressColumn[] columns = narrow
            ? [new TaskDescriptionColumn { Alignment = Justify.Left }, new PercentageColumn(), new EstimateColumn(compact: true)]
            : [new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new ElapsedTimeColumn(), new EstimateColumn(compact: false)];
        await AnsiConsole.Progress()
            .AutoClear(false)
            .Columns(columns)
            .StartAsync(async ctx =>
            {
                var task = ctx.AddTask("starting", maxValue: jobs.Count);
                foreach (var job in jobs)
                {
                    var (known, unknown) = estimator.Remaining(jobs.Skip(job.Index + 1));
                    task.Description = narrow
                        ? $"[bold]{Markup.Escape(job.Title)}[/] {(job.Warmup ? "w" : $"{job.Round}/{repeat}")} [grey]{job.Index + 1}/{jobs.Count}[/]"
                        : $"[bold]{Markup.Escape(job.Title)}[/] {job.RunLabel(repeat)} [grey]({job.Index + 1}/{jobs.Count})[/]";
                    task.State.Update<long>(JobStartKey, _ => Stopwatch.GetTimestamp());
                    task.State.Update<double>(ExpectedKey, _ => estimator.Expected(job.Key)?.TotalMilliseconds ?? -1);
                    task.State.Update<double>(AfterKey, _ => known.TotalMilliseconds);
                    task.State.Update<int>(UnknownKey, _ => unknown);
                    var clock = Stopwatch.StartNew();
                    var outcome = await execute(job, ct);
                    estimator.Record(job.Key, clock.Elapsed);
                    AnsiConsole.MarkupLine(outcome.Ok
                        ? $"[green]ok[/]     {Markup.Escape(job.Title)} {job.RunLabel(repeat)}: {Markup.Escape(outcome.Text)}"
                        : $"[red]FAILED[/] {Markup.Escape(job.Title)} {job.RunLabel(repeat)}: {Markup.Escape(outcome.Text)}");
                    task.Increment(1);
                }

                task.Description = "[bold]done[/]";
                task.State.Update<double>(ExpectedKey, _ => 0);
                task.State.Update<double>(AfterKey, _ => 0);
                task.State.Update<int>(UnknownKey, _ => 0);
            });
    }

    /// <summary>This run's elapsed time and the estimate for everything left, redrawn while a long run is going.</summary>
    private sealed class EstimateColumn(bool compact) : ProgressColumn
    {
        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime)
        {
            var started = task.State.Get<long>(JobStartKey);
            var current = started == 0 ? TimeSpan.Zero : Stopwatch.GetElapsedTime(started);
            var expected = task.State.Get<double>(ExpectedKey);
            var after = TimeSpan.FromMilliseconds(task.State.Get<double>(AfterKey));
            var unknown = task.State.Get<int>(UnknownKey);
            // The current run counts as unknown until its case has a time; then only what is left of it counts.
            var left = expected >= 0 ? after + TimeSpan.FromMilliseconds(Math.Max(0, expected - current.TotalMilliseconds)) : after;
            var text = task.IsFinished ? ""
                : compact ? $"{Estimator.Format(current)} · {(unknown + (expected < 0 ? 1 : 0) == 0 ? "~" : "≥")}{Estimator.Format(left)} left"
                : $"this run {Estimator.Format(current)} · {Estimator.Describe(left, unknown + (expected < 0 ? 1 : 0))}";
            return new Text(text, new Style(Color.Grey));
        }
    }
}
