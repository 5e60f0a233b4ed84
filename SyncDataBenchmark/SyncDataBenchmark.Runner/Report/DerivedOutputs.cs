namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The outputs derived from the record alone (results.json, already written): the pictures, results.csv and
/// results.md. A picture that fails is reported in results.md and on the console and fails the exit code; the record
/// is not rewritten for it (it holds what was measured, and the pictures can be redrawn from it).
/// </summary>
public static class DerivedOutputs
{
    /// <summary>Writes every output; returns why the pictures failed, or null.</summary>
    public static async Task<string?> WriteAsync(BenchResults report, string outDirectory, bool charts, Action<string> say)
    {
        var tables = ReportTables.Of(report);
        string? pictureProblem = null;
        if (charts)
        {
            say("Drawing the pictures (bench/plot.py)…");
            pictureProblem = await Charts.DrawAsync(tables, outDirectory, CancellationToken.None);
        }

        await CsvReport.WriteAsync(report, Path.Combine(outDirectory, "results.csv"));
        await File.WriteAllTextAsync(Path.Combine(outDirectory, "results.md"), MarkdownReport.Render(tables, charts, pictureProblem), CancellationToken.None);
        return pictureProblem;
    }
}
