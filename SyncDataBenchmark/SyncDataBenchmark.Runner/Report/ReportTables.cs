using System.Text.Json.Serialization;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// Every table of a report, derived from the record alone when the report is rendered (as BenchmarkDotNet's Summary
/// is from its runs): the summary table at the headline size on the first link, the same per link, and for a sweep
/// how each case grows with rows. The exporters (markdown, console, bench/plot.py through <see cref="Charts"/>) print
/// these; nothing here is stored in results.json.
/// </summary>
public sealed class ReportTables(BenchReport record, IReadOnlyList<SummaryRow> summary, IReadOnlyList<LinkRows> links, IReadOnlyList<CaseGrowth> growth)
{
    [JsonIgnore]
    public BenchReport Record { get; } = record;
    /// <summary>The headline: the largest size, the first link.</summary>
    public IReadOnlyList<SummaryRow> Summary { get; } = summary;
    /// <summary>Per link (only when one is shaped or there are several): its rows at the headline size.</summary>
    public IReadOnlyList<LinkRows> Links { get; } = links;
    public IReadOnlyList<CaseGrowth> Growth { get; } = growth;
    public BenchParameters Parameters => Record.Parameters;
    /// <summary>For the pictures: the runs whose samples they draw.</summary>
    public IReadOnlyList<CombinationRun> Runs => Record.Runs;

    public static ReportTables Of(BenchReport record)
    {
        var parameters = record.Parameters;
        var firstLink = parameters.Links[0];
        var links = parameters.Links.Count > 1 || firstLink.Shaped
            ? parameters.Links.Select(l => new LinkRows(l.Name, l.RateBitsPerSecond, SummaryTable.Build(record, parameters.Rows, l.Name))).ToList()
            : [];
        return new ReportTables(record, SummaryTable.Build(record, parameters.Rows, firstLink.Name), links,
            parameters.Sizes.Count > 1 ? CaseGrowth.Build(record, firstLink.Name) : []);
    }
}
