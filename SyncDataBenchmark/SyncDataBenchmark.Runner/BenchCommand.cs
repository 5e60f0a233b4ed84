using System.Diagnostics;
using Spectre.Console;
using SyncDataBenchmark.Runner.Budget;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>The whole benchmark: tools checked, the lab up, the plan carried out (each item appended to the record), outputs from the record, all stopped.</summary>
public static class BenchCommand
{
    public const int Passed = 0;
    public const int RunsFailed = 1;
    public const int SetupFailed = 2;
    public const int Interrupted = 130;

    public static async Task<int> RunAsync(BenchSettings settings, CancellationToken ct)
    {
        if (settings.ReportFrom is not null || settings.Readme is not null)
        {
            var reported = settings.ReportFrom is { } recordDirectory ? await ReportAgainAsync(recordDirectory.FullName, settings.Charts) : Passed;
            return settings.Readme is { } page && reported == Passed ? await RenderPageAsync(page) : reported;
        }

        try
        {
            return await MeasureWholeAsync(settings, ct);
        }
        catch (OperationCanceledException) when (ct.IsCancellationRequested)
        {
            // Before the first run (the cluster starting, the seed, the services): nothing measured, everything started stopped.
            Error("Interrupted before any run: nothing was measured, so no record was written; the seed under way was rolled back and the lab stopped.");
            return Interrupted;
        }
    }

    /// <summary>The lab set up, the plan (or --follow's matrix) carried out, the outputs written.</summary>
    private static async Task<int> MeasureWholeAsync(BenchSettings settings, CancellationToken ct)
    {
        var startedAt = DateTimeOffset.UtcNow;
        var wall = Stopwatch.StartNew();
        var display = Displays.ForConsole(settings.Repeat);
        // --follow has no rounds to order or repeat.
        if (settings.FollowSeconds is null)
        {
            SayOrderAndBudget(settings, display);
        }

        Directory.CreateDirectory(settings.Out.FullName);
        // Earlier records' times (the committed ones under artifacts/, and --out's): what the plan estimates from.
        var priors = await PriorCosts.ReadAsync([settings.Out.FullName, Path.GetFullPath("artifacts")], settings.Tmpfs);
        if (settings.FollowSeconds is null && settings.OwnTable is null)
        {
            SayEstimate(settings, new CostModel(priors), display);
        }

        if (await ToolsAsync(settings) is not { } tools)
        {
            return SetupFailed;
        }

        if (await StartLabAsync(settings, display, ct) is not { } lab)
        {
            return SetupFailed;
        }

        await using (lab)
        {
            if (ForTables(settings, lab, display) is not { } narrowed)
            {
                return SetupFailed;
            }

            settings = narrowed;

            var environment = await EnvironmentProbe.ReadAsync(lab.PostgresVersion, tools, startedAt);
            if (settings.FollowSeconds is not null)
            {
                return await Follow.FollowCommand.RunAsync(settings, lab, display.Say, environment, wall, ct);
            }

            var (report, complete) = await MeasureAsync(settings, lab, display, environment, wall, priors, ct);
            var pictureProblem = await DerivedOutputs.WriteAsync(report, settings.Out.FullName, settings.Charts, display.Say);
            ConsoleSummary.Show(report, settings.Out.FullName, pictureProblem);
            return !complete ? Interrupted : report.Passed && pictureProblem is null ? Passed : RunsFailed;
        }
    }

    /// <summary>The cluster(s), the seed and the services; null (the reason printed) when they could not be set up.</summary>
    private static async Task<BenchLab?> StartLabAsync(BenchSettings settings, IBenchDisplay display, CancellationToken ct)
    {
        try
        {
            return await Heartbeat.RunAsync("setting up the lab (cluster, seed, services)", () => BenchLab.StartAsync(settings, settings.Links[0], display.Say, ct), display.Say);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            Error($"Could not set up the lab: {ex.Message}");
            return null;
        }
    }

    /// <summary>The seed that repeats the order, the budget, and how many timed runs each case gets.</summary>
    private static void SayOrderAndBudget(BenchSettings settings, IBenchDisplay display) =>
        display.Say($"Seed {settings.Seed} (--seed {settings.Seed} repeats this order); budget {Estimator.Format(TimeSpan.FromSeconds(settings.BudgetSeconds))} (--budget), from now; "
                + (settings.MaxRepeat == settings.Repeat ? $"each case: {settings.Repeat} timed run(s)" : $"each case: at least {settings.Repeat} timed runs, more while it is a close call, until its ratio's interval is within "
                + $"{settings.TargetWidth:P0} or {settings.CaseBudgetSeconds:0} s of runs are spent (at most {settings.MaxRepeat})")
                + (settings.Repeat < RunStatistics.MinTestRuns ? $"; fewer than {RunStatistics.MinTestRuns} a side: {RunStatistics.TooFewRuns}." : "."));

    /// <summary>
    /// The matrix narrowed to what carries the lab's tables: the described ones' views, or the user's table; null (the
    /// reason printed) when nothing can carry the user's table.
    /// </summary>
    private static BenchSettings? ForTables(BenchSettings settings, BenchLab lab, IBenchDisplay display)
    {
        if (lab.OwnTable is not { } own)
        {
            // --follow runs no copy-once case: what those would leave out of a described table does not apply.
            return !lab.Tables.Any(t => t.Description is not null) ? settings
                : settings.FollowSeconds is not null ? settings with { Tables = lab.Tables } : CatalogViews.Described(settings, lab.Tables, display.Say);
        }

        if (settings.FollowsOwnTable)
        {
            // --follow on your table by opt-in: its one table, no copy-once case to narrow, and no write rate: the lab
            // writes nothing there (0 in the record), it follows your own traffic.
            return settings with { Tables = [own], WriteRates = [0] };
        }

        try
        {
            return OwnTableMatrix.Narrow(settings, own, lab.SourceChecksum.Rows, lab.OwnTableBytes, display.Say);
        }
        catch (InvalidOperationException ex)
        {
            Error(ex.Message);
            return null;
        }
    }

    /// <summary>--report-from: the outputs made again from a record; the record itself is left as it was measured.</summary>
    private static async Task<int> ReportAgainAsync(string directory, bool charts)
    {
        var report = await ResultsFile.ReadAsync(Path.Combine(directory, ResultsFile.FileName));
        // A --follow record has no copy-once runs to draw.
        var pictureProblem = await DerivedOutputs.WriteAsync(report, directory, charts && report.Follow is null, AnsiConsole.WriteLine);
        if (report.Follow is not null)
        {
            ConsoleSummary.ShowFollow(AnsiConsole.Console, report, directory);
            return Passed;
        }

        ConsoleSummary.Show(report, directory, pictureProblem);
        return pictureProblem is null ? Passed : RunsFailed;
    }

    /// <summary>--readme: the page's generated blocks rendered again from the records they name (ReadmeBlocks); nothing else on the page changes.</summary>
    private static async Task<int> RenderPageAsync(FileInfo page)
    {
        try
        {
            var text = await File.ReadAllTextAsync(page.FullName);
            var records = new Dictionary<string, ReportTables>(StringComparer.Ordinal);
            foreach (var folder in ReadmeBlocks.Read(text).Select(b => b.Folder).Distinct())
            {
                records[folder] = ReportTables.Of(await ResultsFile.ReadAsync(Path.Combine(page.DirectoryName!, folder, ResultsFile.FileName)));
            }

            await File.WriteAllTextAsync(page.FullName, ReadmeBlocks.Rewrite(text, folder => records[folder]));
            AnsiConsole.WriteLine($"{page.Name}: its blocks rendered again from {string.Join(", ", records.Keys.Select(f => f + "/" + ResultsFile.FileName))}.");
            return Passed;
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException or System.Text.Json.JsonException)
        {
            Error($"{page.Name}: {ex.Message}");
            return SetupFailed;
        }
    }

    /// <summary>The plan carried out, the record written after each item and once more, complete (or not), at the end.</summary>
    private static async Task<(BenchResults Report, bool Complete)> MeasureAsync(
        BenchSettings settings, BenchLab lab, IBenchDisplay display, BenchEnvironment environment, Stopwatch wall, PriorCosts priors, CancellationToken ct)
    {
        var jsonPath = Path.Combine(settings.Out.FullName, ResultsFile.FileName);
        var record = new SessionMeasurements();
        var cost = new CostModel(priors, lab.OwnTable is null ? null : _ => OwnTableMatrix.RunSeconds(lab.OwnTableBytes));
        var session = new BenchSession(new BenchPlan(settings), record, display,
            _ => ResultsFile.WriteAsync(ResultsFile.Build(record, lab, settings, environment, complete: false), jsonPath),
            new RunBudget(TimeSpan.FromSeconds(settings.BudgetSeconds), wall), cost);
        var complete = true;
        try
        {
            await session.RunAsync(lab, ct);
        }
        catch (OperationCanceledException)
        {
            complete = false;
            display.Say("Stopped: writing what was measured so far.");
        }

        var finished = environment with { FinishedAt = DateTimeOffset.UtcNow, WallTimeMs = Math.Round(wall.Elapsed.TotalMilliseconds) };
        var report = ResultsFile.Build(record, lab, settings, finished, complete);
        await ResultsFile.WriteAsync(report, jsonPath);
        return (report, complete);
    }

    /// <summary>
    /// What the run will cost, said before the lab starts: each size's plan from earlier records' times as they were
    /// measured (today's speed is known only once runs are timed; each size is planned again when it starts).
    /// </summary>
    private static void SayEstimate(BenchSettings settings, CostModel cost, IBenchDisplay display)
    {
        var plan = new BenchPlan(settings);
        var budget = new RunBudget(TimeSpan.FromSeconds(settings.BudgetSeconds), new Stopwatch());
        var total = 0.0;
        for (var i = 0; i < settings.Sizes.Count; i++)
        {
            var items = plan.ItemsAt(i, settings.Links[0].Name, new SessionMeasurements());
            var sized = BudgetPlanner.Plan(items, settings, cost, budget.ShareSeconds(settings.Sizes, i, settings.Links.Count), settings.Links[0].Name);
            total += sized.MinimumSeconds * settings.Links.Count;
            foreach (var line in sized.Describe(settings.Sizes[i]))
            {
                display.Say(line);
            }
        }

        display.Say($"Estimate before the lab starts: ~{BudgetPlanner.Format(total)} of runs at this machine's recorded speed, plus the lab's start (a cluster, the seed, " +
                    $"two services); at most the budget, {Estimator.Format(budget.Total)}. Each size is planned again when it starts, and the progress line's time left is at today's speed once timed runs have shown it.");
        if (BusyNote() is { } busy)
        {
            display.Say(busy);
        }
    }

    /// <summary>
    /// Said when other work already loads the machine (the 1-minute load average past its cores): the recorded speed is a
    /// quiet machine's, and at a load of 11 to 17 on two cores runs took 1.5 to 2.3 times their plan (docs/running.md).
    /// </summary>
    private static string? BusyNote()
    {
        var text = File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg") : null;
        return text?.Split(' ') is [var first, ..] && double.TryParse(first, System.Globalization.CultureInfo.InvariantCulture, out var load) && load > Environment.ProcessorCount
            ? $"This machine is busy (load average {load:0.0} on {Environment.ProcessorCount} cores): expect the runs to take longer than the estimate; the budget still bounds them."
            : null;
    }

    /// <summary>The external tools' versions, checked before an hour of runs; null (and said why) when the pictures cannot be drawn.</summary>
    private static async Task<Dictionary<string, string>?> ToolsAsync(BenchSettings settings)
    {
        var tools = new Dictionary<string, string>
        {
            ["psql"] = await ShellCommand.FirstLineAsync("psql", "--version") ?? "not installed",
        };
        if (settings.RunsPeer(PeerDefinition.PgcopydbKey))
        {
            tools["pgcopydb"] = await ShellCommand.FirstLineAsync("pgcopydb", "--version") ?? "not installed";
        }

        if (settings.FollowSeconds is not null)
        {
            tools["pgbench"] = await ShellCommand.FirstLineAsync("pgbench", "--version") ?? "not installed";
        }

        // --follow draws no pictures.
        if (!settings.Charts || settings.FollowSeconds is not null)
        {
            return tools;
        }

        if (await Charts.MatplotlibVersionAsync() is not { } matplotlib)
        {
            Error($"{Charts.Python} cannot run bench/plot.py (is matplotlib installed? Debian: python3-matplotlib; ./bench.sh installs it as root). Or pass --no-charts.");
            return null;
        }

        tools["matplotlib"] = matplotlib;
        return tools;
    }

    private static void Error(string message) => AnsiConsole.MarkupLine($"[red]{Markup.Escape(message)}[/]");
}
