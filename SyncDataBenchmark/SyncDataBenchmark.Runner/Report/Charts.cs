using System.Text.Json;
using SyncData.Harness;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The pictures are drawn by bench/plot.py with matplotlib (no .NET charting package restores here). Debian's
/// python3-matplotlib installs into /usr/bin/python3, which a pyenv or venv python3 first on PATH would not see.
/// </summary>
public static class Charts
{
    public static string Script => Path.Combine(Lab.RepositoryRoot, "bench", "plot.py");

    public static string Python =>
        Environment.GetEnvironmentVariable("BENCH_PYTHON") is { Length: > 0 } configured ? configured
        : File.Exists("/usr/bin/python3") ? "/usr/bin/python3"
        : "python3";

    /// <summary>matplotlib's version, or null when it cannot be imported: checked before an hour of runs, not after.</summary>
    public static Task<string?> MatplotlibVersionAsync() => ShellCommand.FirstLineAsync(Python, Script, "--version");

    /// <summary>The tables as plot.py reads them.</summary>
    public static string TablesJson(ReportTables tables) => JsonSerializer.Serialize(tables, BenchJsonContext.Default.ReportTables);

    /// <summary>
    /// Draws N.png per combination and summary.png into <paramref name="outDirectory"/>; returns an error or null.
    /// plot.py reads the tables as the runner derived them (a temporary JSON file), never the record's summaries itself.
    /// </summary>
    public static async Task<string?> DrawAsync(ReportTables tables, string outDirectory, CancellationToken ct)
    {
        var tablesJson = Path.Combine(Path.GetTempPath(), $"syncdata-tables-{Guid.NewGuid():N}.json");
        await File.WriteAllTextAsync(tablesJson, TablesJson(tables), ct);
        var environment = new Dictionary<string, string>
        {
            ["MPLBACKEND"] = "Agg",
            // matplotlib caches fonts under $HOME; keep it out of a read-only or shared home.
            ["MPLCONFIGDIR"] = Path.Combine(Path.GetTempPath(), "syncdata-matplotlib"),
            ["PY"] = Python,
            ["SCRIPT"] = Script,
            ["TABLES"] = tablesJson,
            ["OUT"] = outDirectory,
        };
        try
        {
            var outcome = await ShellCommand.RunAsync("\"$PY\" \"$SCRIPT\" \"$TABLES\" --out \"$OUT\"", environment, outDirectory, ct);
            return outcome.ExitCode == 0 ? null : $"bench/plot.py exited with {outcome.ExitCode}: {outcome.Output}";
        }
        finally
        {
            File.Delete(tablesJson);
        }
    }
}
