using System.Globalization;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>How the tables write a figure: times, sizes, counts, ratios and differences, invariant culture.</summary>
public static class ReportFormat
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public const string None = "—";

    public static string Ms(double ms) => ms >= 100 ? ms.ToString("N0", Invariant) + " ms" : ms.ToString("0.#", Invariant) + " ms";

    public static string Bytes(double bytes) => bytes switch
    {
        >= 1L << 30 => (bytes / (1L << 30)).ToString("0.00", Invariant) + " GiB",
        >= 100L << 20 => (bytes / (1L << 20)).ToString("0", Invariant) + " MiB",
        >= 1L << 20 => (bytes / (1L << 20)).ToString("0.0", Invariant) + " MiB",
        >= 1L << 10 => (bytes / (1L << 10)).ToString("0", Invariant) + " KiB",
        _ => bytes.ToString("0", Invariant) + " B",
    };

    public static string Count(double value) => value.ToString("0.#", Invariant);

    public static string Number(double value, string format) => value.ToString(format, Invariant);

    public static string Rows(long rows) => rows.ToString("N0", Invariant);

    public static string Times(double ratio) => ratio.ToString("0.00", Invariant) + "×";

    /// <summary>" (+12%)" against the baseline; nothing without one (or from zero, where a percentage means nothing).</summary>
    public static string Change(double value, double? baseline) => baseline is { } b && b > 0
        ? $" ({((value / b - 1) * 100).ToString("+0;−0;±0", Invariant)}%)"
        : "";

    public static string Signed(double value) => value.ToString("+0.#;−0.#;0", Invariant);

    /// <summary>
    /// An allocation median and its source (ServiceMedians.ShownAllocatedBytes), or why there is none; a partial
    /// median says over how many runs.
    /// </summary>
    public static string Allocated(ServiceMedians f)
    {
        if (f.ShownAllocatedBytes is not { } bytes)
        {
            var datas = f.AllocatedBytesUnavailable?.Contains("DATAS", StringComparison.Ordinal) == true ? "DATAS, " : "";
            return $"n/a ({datas}no tick sum: {f.AllocationTickUnavailable ?? "not measured"})";
        }

        var runs = f.FromTicks ? f.AllocationTickRuns : f.AllocatedRuns;
        var partial = runs < f.Runs ? $"{runs}/{f.Runs} runs" : null;
        var marks = new[] { f.FromTicks ? "tick sum" : null, partial }.OfType<string>().ToList();
        return marks.Count == 0 ? Bytes(bytes) : $"{Bytes(bytes)} ({string.Join(", ", marks)})";
    }
}
