using System.Diagnostics;
using Spectre.Console;
using Spectre.Console.Rendering;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>Spectre.Console progress: the current case and run, its own elapsed time, overall elapsed, and the time spent and left of the budget.</summary>
public sealed class LiveDisplay(int repeat) : IBenchDisplay
{
    /// <summary>Below this many columns the progress line drops the bar and the elapsed column.</summary>
    private const int NarrowWidth = 120;

    public void Say(string text) => AnsiConsole.MarkupLine($"[grey]{Markup.Escape(text)}[/]");

    public async Task RunAsync(IReadOnlyList<PlanItem> jobs, Func<PlanItem, CancellationToken, Task<ItemOutcome>> execute, CancellationToken ct,
        Func<IReadOnlyList<PlanItem>, string>? status = null)
    {
        // At 80 columns the bar and the elapsed column would squeeze the description into 7-character pieces.
        var narrow = AnsiConsole.Profile.Width < NarrowWidth;
        var line = new StatusColumn(compact: narrow);
        ProgressColumn[] columns = narrow
            ? [new TaskDescriptionColumn { Alignment = Justify.Left }, new PercentageColumn(), line]
            : [new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new ElapsedTimeColumn(), line];
        await AnsiConsole.Progress()
            .AutoClear(false)
            .Columns(columns)
            .StartAsync(async ctx =>
            {
                var task = ctx.AddTask("starting", maxValue: jobs.Count);
                foreach (var job in jobs)
                {
                    task.Description = narrow
                        ? $"[bold]{Markup.Escape(job.Title)}[/] {(job.Warmup ? "w" : $"{job.Round}/{repeat}")} [grey]{job.Index + 1}/{jobs.Count}[/]"
                        : $"[bold]{Markup.Escape(job.Title)}[/] {job.RunLabel(repeat)} [grey]({job.Index + 1}/{jobs.Count})[/]";
                    line.Start(status is null ? "" : status([.. jobs.Skip(job.Index)]));
                    var outcome = await execute(job, ct);
                    AnsiConsole.MarkupLine(outcome.Ok
                        ? $"[green]ok[/]     {Markup.Escape(job.Title)} {job.RunLabel(repeat)}: {Markup.Escape(outcome.Text)}"
                        : $"[red]FAILED[/] {Markup.Escape(job.Title)} {job.RunLabel(repeat)}: {Markup.Escape(outcome.Text)}");
                    task.Increment(1);
                }

                task.Description = "[bold]done[/]";
                line.Start("");
            });
    }

    /// <summary>This run's elapsed time and the budget's line (time spent and left), redrawn while a long run is going.</summary>
    private sealed class StatusColumn(bool compact) : ProgressColumn
    {
        private long _started;
        private string _status = "";

        public void Start(string status)
        {
            _status = status;
            Interlocked.Exchange(ref _started, Stopwatch.GetTimestamp());
        }

        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime)
        {
            var current = Stopwatch.GetElapsedTime(Interlocked.Read(ref _started));
            var text = task.IsFinished ? "" : compact ? $"{Estimator.Format(current)} · {_status}" : $"this run {Estimator.Format(current)} · {_status}";
            return new Text(text, new Style(Color.Grey));
        }
    }
}
