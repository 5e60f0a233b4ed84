using System.Diagnostics;
using Spectre.Console;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>The whole benchmark: tools checked, the system under test up, the session (each job written to the record), outputs from the record, all stopped.</summary>
public static class BenchCommand
{
    public const int Passed = 0;
    public const int RunsFailed = 1;
    public const int SetupFailed = 2;
    public const int Interrupted = 130;

    public static async Task<int> RunAsync(BenchSettings settings, CancellationToken ct)
    {
        if (settings.ReportFrom is { } recordDirectory)
        {
            return await ReportAgainAsync(recordDirectory.FullName, settings.Charts);
        }

        var startedAt = DateTimeOffset.UtcNow;
        var wall = Stopwatch.StartNew();
        var display = Displays.ForConsole(settings.Repeat);
        Directory.CreateDirectory(settings.Out.FullName);
        if (await ToolsAsync(settings) is not { } tools)
        {
            return SetupFailed;
        }

        SystemUnderTest system;
        try
        {
            system = await Heartbeat.RunAsync("setting up the lab (cluster, seed, services)", () => SystemUnderTest.StartAsync(settings, display.Say, ct), display.Say);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            Error($"Could not set up the lab: {ex.Message}");
            return SetupFailed;
        }

        await using (system)
        {
            var environment = await EnvironmentProbe.ReadAsync(system.PostgresVersion, tools, startedAt);
            var (report, complete) = await MeasureAsync(settings, system, display, environment, wall, ct);
            var pictureProblem = await Reports.WriteAsync(report, settings.Out.FullName, settings.Charts, display.Say);
            ConsoleSummary.Show(report, settings.Out.FullName, pictureProblem);
            return !complete ? Interrupted : report.Passed && pictureProblem is null ? Passed : RunsFailed;
        }
    }

    /// <summary>--report-from: the outputs made again from a record; the record itself is left as it was measured.</summary>
    private static async Task<int> ReportAgainAsync(string directory, bool charts)
    {
        var report = await ResultsRecord.ReadAsync(Path.Combine(directory, ResultsRecord.FileName));
        var pictureProblem = await Reports.WriteAsync(report, directory, charts, AnsiConsole.WriteLine);
        ConsoleSummary.Show(report, directory, pictureProblem);
        return pictureProblem is null ? Passed : RunsFailed;
    }

    /// <summary>The session's jobs, the record written after each and once more, complete (or not), at the end.</summary>
    private static async Task<(BenchReport Report, bool Complete)> MeasureAsync(
        BenchSettings settings, SystemUnderTest system, IBenchDisplay display, BenchEnvironment environment, Stopwatch wall, CancellationToken ct)
    {
        var jsonPath = Path.Combine(settings.Out.FullName, ResultsRecord.FileName);
        using var session = new BenchSession(settings, system, display,
            s => ResultsRecord.WriteAsync(ResultsRecord.Build(s, system, settings, environment, complete: false), jsonPath));
        var complete = true;
        try
        {
            await RunLinksAsync(settings, session, display, ct);
        }
        catch (OperationCanceledException)
        {
            complete = false;
            display.Say("Stopped: writing what was measured so far.");
        }
        finally
        {
            // The first link's system is the caller's to stop; a later link's is stopped here, on failure and Ctrl-C too.
            if (session.CurrentSystem != system)
            {
                await session.CurrentSystem.DisposeAsync();
            }
        }

        var finished = environment with { FinishedAt = DateTimeOffset.UtcNow, WallTimeMs = Math.Round(wall.Elapsed.TotalMilliseconds) };
        var report = ResultsRecord.Build(session, system, settings, finished, complete);
        await ResultsRecord.WriteAsync(report, jsonPath);
        return (report, complete);
    }

    /// <summary>
    /// The whole schedule across each link in turn (--link): the first on the system already up, each further one on
    /// its own, set up after the previous one is stopped (its own hosts, clusters and services).
    /// </summary>
    private static async Task RunLinksAsync(BenchSettings settings, BenchSession session, IBenchDisplay display, CancellationToken ct)
    {
        await session.RunAsync(ct);
        foreach (var link in settings.Links.Skip(1))
        {
            await session.CurrentSystem.DisposeAsync();
            SystemUnderTest next;
            try
            {
                next = await Heartbeat.RunAsync($"setting up the {link.Name} lab (hosts, clusters, seed, services)",
                    () => SystemUnderTest.StartAsync(settings, link, display.Say, ct), display.Say);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                session.Problems.Add($"Could not set up the {link.Name} link's lab: {ex.Message}");
                display.Say(session.Problems[^1]);
                return;
            }

            session.UseSystem(next);
            await session.RunAsync(ct);
        }
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

        if (!settings.Charts)
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
