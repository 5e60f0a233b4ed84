using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Spectre.Console;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>The whole benchmark: lab up, matrix and peers, outputs written, lab down.</summary>
public static class BenchCommand
{
    public const int Passed = 0;
    public const int RunsFailed = 1;
    public const int SetupFailed = 2;
    public const int Interrupted = 130;

    public static async Task<int> RunAsync(BenchSettings settings, CancellationToken ct)
    {
        var startedAt = DateTimeOffset.UtcNow;
        var wall = Stopwatch.StartNew();
        var display = Displays.ForConsole(settings.Repeat);
        var outDirectory = settings.Out.FullName;
        Directory.CreateDirectory(outDirectory);

        var tools = new Dictionary<string, string>
        {
            ["psql"] = await ShellCommand.FirstLineAsync("psql", "--version") ?? "not installed",
        };
        if (settings.Peers)
        {
            tools["pgcopydb"] = await ShellCommand.FirstLineAsync("pgcopydb", "--version") ?? "not installed";
        }

        if (settings.Charts)
        {
            if (await Charts.MatplotlibVersionAsync() is { } matplotlib)
            {
                tools["matplotlib"] = matplotlib;
            }
            else
            {
                Error($"{Charts.Python} cannot run bench/plot.py (is matplotlib installed? Debian: python3-matplotlib; ./bench.sh installs it as root). Or pass --no-charts.");
                return SetupFailed;
            }
        }

        BenchLab lab;
        try
        {
            lab = await Heartbeat.RunAsync("setting up the lab (cluster, seed, services)", () => BenchLab.StartAsync(settings, display.Say, ct), display.Say);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            Error($"Could not set up the lab: {ex.Message}");
            return SetupFailed;
        }

        await using (lab)
        {
            var environment = await EnvironmentProbe.ReadAsync(lab.PostgresVersion, tools, startedAt);
            var jsonPath = Path.Combine(outDirectory, "results.json");
            using var session = new BenchSession(settings, lab, display,
                // Rewritten after every run, so a long session stopped midway still leaves its data.
                s => WriteJsonAsync(Build(s, lab, settings, environment, complete: false, []), jsonPath));
            var complete = true;
            try
            {
                await session.RunAsync(ct);
            }
            catch (OperationCanceledException)
            {
                complete = false;
                display.Say("Stopped: writing what was measured so far.");
            }

            var finished = environment with { FinishedAt = DateTimeOffset.UtcNow, WallTimeMs = Math.Round(wall.Elapsed.TotalMilliseconds) };
            var problems = new List<string>();
            var report = Build(session, lab, settings, finished, complete, problems);
            await WriteJsonAsync(report, jsonPath);
            if (settings.Charts)
            {
                display.Say("Drawing the pictures (bench/plot.py)…");
                if (await Charts.DrawAsync(jsonPath, outDirectory, CancellationToken.None) is { } chartError)
                {
                    problems.Add(chartError);
                    report = Build(session, lab, settings, finished, complete, problems);
                    await WriteJsonAsync(report, jsonPath);
                }
            }

            await CsvReport.WriteAsync(report, Path.Combine(outDirectory, "results.csv"));
            await File.WriteAllTextAsync(Path.Combine(outDirectory, "results.md"), MarkdownReport.Render(report, settings.Charts), CancellationToken.None);
            ShowSummary(report, outDirectory);
            return !complete ? Interrupted : report.Passed ? Passed : RunsFailed;
        }
    }

    private static BenchReport Build(BenchSession session, BenchLab lab, BenchSettings settings, BenchEnvironment environment, bool complete, IReadOnlyList<string> problems)
    {
        var allProblems = session.Problems.Concat(problems).ToList();
        var mainProfile = lab.ServicesStartedByRunner ? settings.MainProfile.Name : BenchSession.ExternalProfile;
        // The headline table and the per-case pictures describe one size: the largest one measured so far.
        var headline = settings.Sizes.LastOrDefault(s => session.Runs.Any(r => r.SourceRows == s) || session.PeerRuns.Any(r => r.SourceRows == s), settings.Sizes[0]);
        List<CaseSummary> SummaryAt(long rows)
        {
            bool Skipped(string key, string profile) => session.Skipped.Any(s => s.Rows == rows && s.Case == key && s.Profile == profile);
            var others = settings.Profiles.Skip(1)
                .Select(p => (p.Name, (IReadOnlyList<Combination>)session.ProfileCombinations.Where(c => !Skipped(c.Key, p.Name)).ToList()))
                .ToList();
            return Summaries.Build(
                session.Combinations.Where(c => !Skipped(c.Key, settings.MainProfile.Name)).ToList(),
                session.Peers.Where(p => !Skipped(p.Key, settings.MainProfile.Name)).ToList(),
                session.Runs.Where(r => r.SourceRows == rows).ToList(),
                session.PeerRuns.Where(r => r.SourceRows == rows).ToList(),
                mainProfile, others);
        }

        var summary = SummaryAt(headline);
        var measuredSizes = settings.Sizes.Where(s => session.Runs.Any(r => r.SourceRows == s) || session.PeerRuns.Any(r => r.SourceRows == s)).ToList();
        var growth = settings.Sizes.Count > 1 ? Growth.Build(measuredSizes, SummaryAt, session.Skipped) : [];
        var anyRun = session.Runs.Count + session.PeerRuns.Count > 0;
        return new BenchReport
        {
            Complete = complete,
            Passed = complete && anyRun && session.Runs.All(r => r.Ok) && session.PeerRuns.All(r => r.Ok) && allProblems.Count == 0,
            Environment = environment,
            Parameters = new BenchParameters
            {
                Rows = headline,
                Sizes = settings.Sizes,
                MaxRunSeconds = settings.Sizes.Count > 1 ? settings.MaxRunSeconds : null,
                WarmupPolicy = settings.Sizes.Count == 1 ? null
                    : settings.Profiles.Count > 1 ? "one untimed warm-up round at every size (each profile restarts the services at every size)"
                    : "one untimed warm-up round at the first size only (the services stay up, warm, across sizes)",
                SeedMsBySize = session.SeedMs,
                Repeat = settings.Repeat,
                Warmups = settings.Warmups,
                PageSize = settings.PageSize,
                BatchSize = settings.BatchSize,
                Cases = settings.Cases.Patterns,
                Tmpfs = settings.Tmpfs,
                PostgresSettings = lab.PostgresSettings,
                Database = settings.Connection is null ? "local" : "existing",
                SeedReused = lab.SeedReused,
                SeedMs = lab.SeedMs,
                SourceSummary = lab.SourceSummary,
                Peers = settings.Peers,
                Charts = settings.Charts,
                SomeServiceUrl = lab.SomeServiceUrl.ToString(),
                SourceUrl = lab.SourceUrl?.ToString(),
                ServicesStartedByRunner = lab.ServicesStartedByRunner,
                Profiles = lab.ServicesStartedByRunner
                    ? settings.Profiles.Select(p => new ProfileReport(p.Name, p.Description, p.Environment, p == settings.MainProfile)).ToList()
                    : [new ProfileReport(BenchSession.ExternalProfile, "services started by someone else: see each run's reported settings", new Dictionary<string, string>(), true)],
                ProfileCases = settings.Profiles.Count > 1 ? settings.ProfileCases.Patterns : [],
            },
            Summary = summary,
            Runs = SampleThinning.KeepPictured(session.Runs, summary),
            Peers = session.PeerRuns.ToList(),
            Problems = allProblems,
            Growth = growth,
            Skipped = session.Skipped.ToList(),
        };
    }

    private static async Task WriteJsonAsync(BenchReport report, string path)
    {
        // Write then rename: a reader (or a crash) never sees half a file.
        var temporary = path + ".tmp";
        await using (var stream = File.Create(temporary))
        {
            await JsonSerializer.SerializeAsync(stream, report, BenchJsonContext.Default.BenchReport);
        }

        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>Below this many columns the tables keep only the columns a reader needs first (results.md has all).</summary>
    public const int NarrowWidth = 120;

    private static void ShowSummary(BenchReport report, string outDirectory)
    {
        var narrow = AnsiConsole.Profile.Width < NarrowWidth;
        var table = new Table().Border(narrow ? TableBorder.None : TableBorder.Simple);
        table.AddColumns(narrow ? ["#", "Case", "Best", "Median", "×psql", "OK"] : ["#", "Case", "Rank", "Best", "Median", "× fastest", "× psql binary", "Verified", "Failures"]);
        foreach (var row in report.Summary)
        {
            var number = row.Number?.ToString(CultureInfo.InvariantCulture) ?? "peer";
            var title = Markup.Escape(row.Kind == CaseSummary.Kinds.Peer ? row.Title : $"{row.Fetch} × {row.Insert}{(row.MainProfile ? "" : $" [{row.Profile}]")}");
            var best = row.BestMs is { } b ? MarkdownReport.Ms(b) : "[red]none[/]";
            var median = row.MedianMs is { } m ? MarkdownReport.Ms(m) : "";
            var psql = row.RatioToPsqlBinary is { } rp ? $"{rp:0.00}" : "";
            var verified = row.Failures > 0 || row.WarmupFailed ? $"[red]{row.Succeeded}/{row.TimedRuns}[/]" : $"{row.Succeeded}/{row.TimedRuns}";
            if (narrow)
            {
                table.AddRow(number, title, best, median, psql, verified);
                continue;
            }

            table.AddRow(number, title, row.Rank?.ToString(CultureInfo.InvariantCulture) ?? "", best, median,
                row.RatioToFastest is { } rf ? $"{rf:0.00}" : "", psql, $"{row.Succeeded}/{row.TimedRuns}",
                row.Failures > 0 || row.WarmupFailed ? $"[red]{row.Failures}{(row.WarmupFailed ? " + warm-up" : "")}[/]" : "0");
        }

        if (report.Parameters.Sizes.Count > 1)
        {
            AnsiConsole.MarkupLine($"At {report.Parameters.Rows:N0} rows (the largest size measured):");
        }

        AnsiConsole.Write(table);
        ShowGrowth(report);
        AnsiConsole.MarkupLine(report.Passed ? $"[green]Every run succeeded and verified.[/] Results in {Markup.Escape(outDirectory)}"
            : !report.Complete ? $"[yellow]Stopped before every run finished.[/] What was measured is in {Markup.Escape(outDirectory)}"
            : $"[red]Not every run succeeded and verified[/] (see results.md). Results in {Markup.Escape(outDirectory)}");
    }

    /// <summary>The exponents (results.md has the figures per size): k time, k peak working set per service.</summary>
    private static void ShowGrowth(BenchReport report)
    {
        if (report.Growth.Count == 0)
        {
            return;
        }

        AnsiConsole.MarkupLine("Growth with rows (cost ∝ rows^k; k fitted on log–log):");
        var table = new Table().Border(AnsiConsole.Profile.Width < NarrowWidth ? TableBorder.None : TableBorder.Simple)
            .AddColumns("Case", "k time", "k WS Some", "k WS Src");
        foreach (var g in report.Growth)
        {
            static string K(GrowthExponent? e) => e is null ? "—" : $"{e.Exponent:0.00} ({e.Points})";
            table.AddRow(Markup.Escape(g.Title + (g.MainProfile ? "" : $" [{g.Profile}]")), K(g.Time), K(g.SomeServiceWorkingSet), K(g.SyncDataSourceWorkingSet));
        }

        AnsiConsole.Write(table);
        foreach (var s in report.Skipped)
        {
            AnsiConsole.MarkupLine($"[yellow]Skipped at {s.Rows:N0} rows:[/] {Markup.Escape($"{s.Title}: {s.Reason}")}");
        }
    }

    private static void Error(string message) => AnsiConsole.MarkupLine($"[red]{Markup.Escape(message)}[/]");
}
