using System.Text.Json.Serialization;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// Every table of a report, derived from the record alone when the report is rendered (as BenchmarkDotNet's Summary
/// is from its runs): the summary table at the headline size on the first link, the same per link, and for a sweep
/// how each case grows with rows. The exporters (markdown, console, bench/plot.py through <see cref="Charts"/>) print
/// these; nothing here is stored in results.json.
/// </summary>
public sealed class ReportTables(BenchResults record, IReadOnlyList<LinkRows> links, IReadOnlyList<(long Rows, IReadOnlyList<SummaryRow> Summary)> bySize)
{
    [JsonIgnore]
    public BenchResults Record { get; } = record;
    /// <summary>The headline: the largest size, the first link.</summary>
    public IReadOnlyList<SummaryRow> Summary { get; } = bySize.FirstOrDefault(s => s.Rows == record.Parameters.Rows).Summary ?? [];
    /// <summary>Per link (only when one is shaped or there are several): its rows at the headline size.</summary>
    public IReadOnlyList<LinkRows> Links { get; } = links;
    /// <summary>The first link's summary table at every size measured, ascending: the sweep's tables read these.</summary>
    [JsonIgnore]
    public IReadOnlyList<(long Rows, IReadOnlyList<SummaryRow> Summary)> BySize { get; } = bySize;
    /// <summary>For a sweep: how each case grows with rows.</summary>
    public IReadOnlyList<CaseGrowth> Growth { get; } = record.Parameters.Sizes.Count > 1
        ? CaseGrowth.Build(bySize, record.Skipped.Where(s => s.Link == record.Parameters.Links[0].Name).ToList())
        : [];
    /// <summary>--changed: each case's time against the changed share, and the crossover per library; null without --changed.</summary>
    public ChangedSweep? Changed { get; } = ChangedSweep.Build(record.Parameters, bySize.FirstOrDefault(s => s.Rows == record.Parameters.Rows).Summary ?? []);
    public BenchParameters Parameters => Record.Parameters;
    /// <summary>False when the session was stopped: a row never timed was then not reached, rather than not asked for.</summary>
    public bool Complete => Record.Complete;
    /// <summary>For the pictures: the runs whose samples they draw.</summary>
    public IReadOnlyList<CombinationRun> Runs => Record.Runs;

    public static ReportTables Of(BenchResults record)
    {
        var parameters = record.Parameters;
        var firstLink = parameters.Links[0];
        var links = parameters.Links.Count > 1 || firstLink.Shaped
            ? parameters.Links.Select(l => new LinkRows(l.Name, l.RateBitsPerSecond, SummaryTable.Build(record, parameters.Rows, l.Name))).ToList()
            : [];
        var measured = parameters.Sizes.Where(s => record.AllRuns.Any(r => r.SourceRows == s));
        return new ReportTables(record, links, measured.Select(s => (s, (IReadOnlyList<SummaryRow>)SummaryTable.Build(record, s, firstLink.Name))).ToList());
    }
}
