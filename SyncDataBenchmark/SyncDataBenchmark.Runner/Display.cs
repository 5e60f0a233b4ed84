using System.Diagnostics;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace SyncDataBenchmark.Runner;

public interface IBenchDisplay
{
    void Say(string text);

    /// <param name="prior">A case's expected time before it has run here (a sweep: predicted from the smaller sizes).</param>
    Task RunAsync(IReadOnlyList<BenchJob> jobs, Func<BenchJob, CancellationToken, Task<JobOutcome>> execute, CancellationToken ct,
        Func<string, TimeSpan?>? prior = null);
}

/// <summary>
/// Remaining time from what each case actually took so far (its warm-up first), not from an average job: one
/// EFOffsetPaging × EFTypical run outweighs all the COPY runs together.
/// </summary>
public sealed class Estimator(Func<string, TimeSpan?>? prior = null)
{
    private readonly Dictionary<string, List<double>> _ms = [];

    public void Record(string key, TimeSpan elapsed)
    {
        if (!_ms.TryGetValue(key, out var list))
        {
            _ms[key] = list = [];
        }

        list.Add(elapsed.TotalMilliseconds);
    }

    public TimeSpan? Expected(string key) => _ms.TryGetValue(key, out var list) ? TimeSpan.FromMilliseconds(list.Average()) : prior?.Invoke(key);

    /// <summary>Sum over the jobs of their case's mean; Unknown counts jobs of cases never run yet.</summary>
    public (TimeSpan Known, int Unknown) Remaining(IEnumerable<BenchJob> jobs)
    {
        var known = TimeSpan.Zero;
        var unknown = 0;
        foreach (var job in jobs)
        {
            if (Expected(job.Key) is { } t)
            {
                known += t;
            }
            else
            {
                unknown++;
            }
        }

        return (known, unknown);
    }

    /// <summary>The estimate in words: "~4m 10s left", or a lower bound while some cases were never timed.</summary>
    public static string Describe(TimeSpan known, int unknown) =>
        unknown == 0 ? $"~{Format(known)} left"
        : known == TimeSpan.Zero ? "time left: known once each case has run"
        : $"≥{Format(known)} left (+{unknown} runs of cases not yet timed)";

    public static string Format(TimeSpan t) =>
        t.TotalHours >= 1 ? $"{(int)t.TotalHours}h {t.Minutes:D2}m" : t.TotalMinutes >= 1 ? $"{(int)t.TotalMinutes}m {t.Seconds:D2}s" : $"{t.TotalSeconds:F0}s";
}

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

public static class Displays
{
    /// <summary>A live Spectre progress display on a terminal; plain lines when stdout is redirected (CI, logs, tests).</summary>
    public static IBenchDisplay ForConsole(int repeat)
    {
        if (!Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive)
        {
            return new LiveDisplay(repeat);
        }

        // Spectre decides on colours from TERM, not from redirection: a log file would get escape codes and an
        // 80-column summary table. Plain text, wide.
        AnsiConsole.Console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
        });
        // A log keeps its lines whole at 160; COLUMNS, when set, says the reader's width (e.g. COLUMNS=80).
        AnsiConsole.Profile.Width = int.TryParse(Environment.GetEnvironmentVariable("COLUMNS"), out var columns) && columns > 0 ? columns : 160;
        return new PlainDisplay(repeat);
    }
}

/// <summary>One line per event, nothing redrawn: readable in a log file.</summary>
public sealed class PlainDisplay(int repeat) : IBenchDisplay
{
    public void Say(string text) => Console.WriteLine(text);

    public async Task RunAsync(IReadOnlyList<BenchJob> jobs, Func<BenchJob, CancellationToken, Task<JobOutcome>> execute, CancellationToken ct,
        Func<string, TimeSpan?>? prior = null)
    {
        var estimator = new Estimator(prior);
        var total = Stopwatch.StartNew();
        foreach (var job in jobs)
        {
            var (known, unknown) = estimator.Remaining(jobs.Skip(job.Index));
            Console.WriteLine($"[{job.Index + 1}/{jobs.Count}] {job.Title} {job.RunLabel(repeat)} · elapsed {Estimator.Format(total.Elapsed)} · {Estimator.Describe(known, unknown)}");
            var clock = Stopwatch.StartNew();
            var outcome = await Heartbeat.RunAsync($"{job.Title} {job.RunLabel(repeat)} still running", () => execute(job, ct), Say);
            estimator.Record(job.Key, clock.Elapsed);
            Console.WriteLine($"    {(outcome.Ok ? "ok" : "FAILED")} {job.Title} {job.RunLabel(repeat)}: {outcome.Text}");
        }

        Console.WriteLine($"All {jobs.Count} runs done in {Estimator.Format(total.Elapsed)}.");
    }
}

/// <summary>Spectre.Console progress: the current case and run, its own elapsed time, overall elapsed and what is left.</summary>
public sealed class LiveDisplay(int repeat) : IBenchDisplay
{
    private const string JobStartKey = "jobStart";
    private const string ExpectedKey = "expected";
    private const string AfterKey = "after";
    private const string UnknownKey = "unknown";

    public void Say(string text) => AnsiConsole.MarkupLine($"[grey]{Markup.Escape(text)}[/]");

    public async Task RunAsync(IReadOnlyList<BenchJob> jobs, Func<BenchJob, CancellationToken, Task<JobOutcome>> execute, CancellationToken ct,
        Func<string, TimeSpan?>? prior = null)
    {
        var estimator = new Estimator(prior);
        // At 80 columns the bar and the elapsed column would squeeze the description into 7-character pieces.
        var narrow = AnsiConsole.Profile.Width < BenchCommand.NarrowWidth;
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
