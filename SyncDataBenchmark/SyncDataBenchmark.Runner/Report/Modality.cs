using System.Text;
using Perfolizer.Mathematics.Multimodality;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// BenchmarkDotNet's multimodal-distribution warning on each row's timed runs: Perfolizer's mValue (Brendan Gregg's
/// frequency trails), judged only from as many runs as BenchmarkDotNet asks of it. A median of two modes describes
/// neither, so its row is named under the table rather than trusted silently.
/// </summary>
public static class Modality
{
    /// <summary>BenchmarkDotNet's floor for the check (its default minimum of workload iterations): fewer runs show no shape.</summary>
    public const int MinRuns = 15;

    /// <summary>BenchmarkDotNet's words for an mValue above each limit, highest first; null below 2.8.</summary>
    public static string? Verdict(IReadOnlyList<double> durations)
    {
        if (durations.Count < MinRuns)
        {
            return null;
        }

        var mValue = MValueCalculator.Calculate(durations);
        var words = mValue > 4.2 ? "is multimodal" : mValue > 3.2 ? "is bimodal" : mValue > 2.8 ? "can have several modes" : null;
        return words is null ? null : $"{words} (mValue = {Number(mValue, "0.##")})";
    }

    /// <summary>The rows whose runs have more than one mode, as a list under the headline; nothing when none has.</summary>
    public static void Append(StringBuilder md, IEnumerable<SummaryRow> rows)
    {
        var warnings = rows.Select(r => (Row: r, Words: Verdict(r.Durations))).Where(x => x.Words is not null)
            .Select(x => $"{x.Row.ProfiledLabel}: its {x.Row.Succeeded} timed runs {x.Words}; read its runs in results.json, not its median alone.")
            .ToList();
        MarkdownReport.AppendList(md, $"Multimodal distributions (Perfolizer's mValue, BenchmarkDotNet's limits, from {MinRuns} runs):", warnings);
    }
}
