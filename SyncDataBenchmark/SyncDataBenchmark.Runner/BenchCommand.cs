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
            lab = await BenchLab.StartAsync(settings, display.Say, ct);
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
            foreach (var group in session.Blocked.GroupBy(b => b.Insert))
            {
                display.Say($"Blocked, not run: {group.Key} with {string.Join(", ", group.Select(b => b.Fetch))}: {group.First().Reason}");
            }

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
        var others = settings.Profiles.Skip(1).Select(p => (p.Name, session.ProfileCombinations)).ToList();
        var summary = Summaries.Build(session.Combinations, session.Peers, session.Blocked, session.Runs, session.PeerRuns, mainProfile, others);
        var anyRun = session.Runs.Count + session.PeerRuns.Count > 0;
        return new BenchReport
        {
            Complete = complete,
            Passed = complete && anyRun && session.Runs.All(r => r.Ok) && session.PeerRuns.All(r => r.Ok) && allProblems.Count == 0,
            Environment = environment,
            Parameters = new BenchParameters
            {
                Rows = settings.Rows,
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
            Blocked = session.Blocked.Select(b => new BlockedCombinationReport(b.Key, b.Number, b.Fetch.ToString(), b.Insert.ToString(), b.Reason)).ToList(),
            Problems = allProblems,
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

    private static void ShowSummary(BenchReport report, string outDirectory)
    {
        var table = new Table().Border(TableBorder.Simple)
            .AddColumns("#", "Case", "Rank", "Best", "Median", "× fastest", "× psql binary", "Verified", "Failures");
        foreach (var row in report.Summary)
        {
            if (row.Kind == CaseSummary.Kinds.Blocked)
            {
                table.AddRow(row.Number?.ToString(CultureInfo.InvariantCulture) ?? "", Markup.Escape($"{row.Fetch} × {row.Insert}"), "", "[grey]blocked[/]", "", "", "", "", "");
                continue;
            }

            table.AddRow(
                row.Number?.ToString(CultureInfo.InvariantCulture) ?? "peer",
                Markup.Escape(row.Kind == CaseSummary.Kinds.Peer ? row.Title : $"{row.Fetch} × {row.Insert}{(row.MainProfile ? "" : $" [{row.Profile}]")}"),
                row.Rank?.ToString(CultureInfo.InvariantCulture) ?? "",
                row.BestMs is { } best ? MarkdownReport.Ms(best) : "[red]none[/]",
                row.MedianMs is { } median ? MarkdownReport.Ms(median) : "",
                row.RatioToFastest is { } rf ? $"{rf:0.00}" : "",
                row.RatioToPsqlBinary is { } rp ? $"{rp:0.00}" : "",
                $"{row.Succeeded}/{row.TimedRuns}",
                row.Failures > 0 || row.WarmupFailed ? $"[red]{row.Failures}{(row.WarmupFailed ? " + warm-up" : "")}[/]" : "0");
        }

        AnsiConsole.Write(table);
        AnsiConsole.MarkupLine(report.Passed ? $"[green]Every run succeeded and verified.[/] Results in {Markup.Escape(outDirectory)}"
            : !report.Complete ? $"[yellow]Stopped before every run finished.[/] What was measured is in {Markup.Escape(outDirectory)}"
            : $"[red]Not every run succeeded and verified[/] (see results.md). Results in {Markup.Escape(outDirectory)}");
    }

    private static void Error(string message) => AnsiConsole.MarkupLine($"[red]{Markup.Escape(message)}[/]");
}
