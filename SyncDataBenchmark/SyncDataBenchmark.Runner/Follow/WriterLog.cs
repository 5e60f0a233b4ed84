using System.Globalization;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// pgbench's per-transaction log (-l, one file per thread): "client transaction time script epoch µs lag" a line, time
/// and lag in µs. Under -R the time counts from the transaction's scheduled start, so the lag (how late it began) is
/// taken off: what is left is the writer's own transaction, the cost a change-capture mechanism adds to.
/// </summary>
public static class WriterLog
{
    /// <summary>The log files' prefix (--log-prefix), followed by pgbench's pid and thread.</summary>
    public const string Prefix = "writers";

    /// <summary>Each logged transaction's own time in ms; skipped or failed transactions (a word instead of a time) are left out.</summary>
    public static IReadOnlyList<double> Read(string directory) =>
        Directory.EnumerateFiles(directory, Prefix + ".*").SelectMany(File.ReadLines).Select(Parse).OfType<double>().ToList();

    /// <summary>One line's transaction time in ms; null when the line has no time and lag (not rate-limited, skipped, failed).</summary>
    public static double? Parse(string line)
    {
        var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return fields.Length >= 7
               && long.TryParse(fields[2], NumberStyles.None, CultureInfo.InvariantCulture, out var timeUs)
               && long.TryParse(fields[6], NumberStyles.None, CultureInfo.InvariantCulture, out var lagUs)
               && timeUs >= lagUs
            ? (timeUs - lagUs) / 1000.0
            : null;
    }
}
