using System.Globalization;
using CsvHelper;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.csv: one row per run (combinations and peers, warm-ups flagged), for spreadsheets and pandas. Each column
/// is declared once, with its value for a combination's run and, where it has one, for a peer's; CsvHelper writes them
/// (RFC 4180, invariant culture).
/// </summary>
public static class CsvReport
{
    /// <summary>A row of results.csv: a combination's run or a peer's, and the profile a peer's row names.</summary>
    public sealed record Run(MeasuredRun Measured, string MainProfile);

    /// <summary>The columns of a record's results.csv: a RunDimension's only once the record names its values.</summary>
    public static IReadOnlyList<ReportColumn<Run>> Columns(BenchParameters parameters) =>
    [
        Column("Kind", _ => SummaryRow.Kinds.Combination, _ => SummaryRow.Kinds.Peer),
        Column("Case", r => r.Case, p => p.Identity.Key),
        new("Profile", run => run.Measured is CombinationRun c ? c.Profile : run.MainProfile),
        Column("Number", r => r.Number),
        Column("Fetch", r => r.Fetch, p => PeerDefinition.Find(p.Peer)!.FetchLabel),
        Column("Insert", r => r.Insert, p => PeerDefinition.Find(p.Peer)!.InsertLabel),
        .. RunDimension.Shown(parameters).Select(d => Shared(d.Header, r => d.Of(r.Identity))),
        .. ChangeCounts(parameters),
        Shared("Round", r => r.Round),
        Shared("Warmup", r => r.Warmup),
        // Rows in the source for this run (the sweep's size); Rows below is what the run moved.
        Shared("SourceRows", r => r.SourceRows),
        Column("Status", r => r.Result?.Status ?? RunStatus.Failed, p => p.Status),
        Column("Verified", r => r.Result?.Verified ?? false, p => p.Verified),
        Column("Rows", r => r.Result?.Rows ?? 0, p => p.Rows),
        Column("DurationMs", r => r.Result?.DurationMs, p => p.DurationMs),
        Column("RowsPerSecond", r => r.Result?.RowsPerSecond, p => p is { Ok: true, DurationMs: > 0 } ? Math.Round(p.Rows / (p.DurationMs.Value / 1000)) : null),
        Column("WallMs", r => r.WallMs, p => p.WallMs),
        Column("PageSize", r => r.Result?.PageSize),
        Column("BatchSize", r => r.Result?.BatchSize),
        Column("WireBytes", r => r.Result?.WireBytes),
        Column("BodyBytes", r => r.Result?.BodyBytes),
        .. Service("SomeService", r => r.SomeService),
        .. Service("SyncDataSource", r => r.SyncDataSource),
        // What DurationMs measures: target-statements (runs, most peers) or whole-command.
        Column("Scope", _ => PeerScopes.TargetStatements, p => p.Scope),
        Shared("Link", r => r.Link),
        Shared("LinkSourceToTargetBytes", r => r.Traffic?.SourceToTargetBytes),
        Shared("LinkTargetToSourceBytes", r => r.Traffic?.TargetToSourceBytes),
        Shared("LinkBytesPerRow", r => r.Traffic?.BytesPerRow),
        .. Unsettled(parameters),
        Column("RunId", r => r.Result?.Id),
        Shared("Error", r => r.Error),
    ];

    /// <summary>A timed run that compiled past the JIT threshold (CombinationRun.Unsettled); no column in records from before the threshold.</summary>
    private static IEnumerable<ReportColumn<Run>> Unsettled(BenchParameters parameters) => parameters.JitThresholdMs is null ? [] :
    [
        Column("JitUnsettled", r => r.Unsettled == true),
    ];

    /// <summary>--changed: what change_&lt;table&gt; did to the source before each run; no columns without it.</summary>
    private static IEnumerable<ReportColumn<Run>> ChangeCounts(BenchParameters parameters) => parameters.Changed is null ? [] :
    [
        Shared("ChangedUpdated", r => r.Changes?.Updated), Shared("ChangedInserted", r => r.Changes?.Inserted), Shared("ChangedDeleted", r => r.Changes?.Deleted),
    ];

    public static IEnumerable<Run> Rows(BenchResults report) =>
        report.AllRuns.Select(r => new Run(r, report.Parameters.MainProfile));

    public static async Task WriteAsync(BenchResults report, string path)
    {
        await using var csv = CsvWriter.ToFile(path, CsvWriterOptions.Default);
        var columns = Columns(report.Parameters);
        csv.WriteHeader([.. columns.Select(c => c.Header)]);
        foreach (var run in Rows(report))
        {
            csv.WriteRecord([.. columns.Select(c => c.Cell(run))]);
        }
    }

    /// <summary>One service's figures of a combination's run, under its prefix; peers run no .NET process.</summary>
    private static IEnumerable<ReportColumn<Run>> Service(string prefix, Func<RunResult, ServiceFigures?> of)
    {
        ReportColumn<Run> Figure(string name, Func<ServiceFigures, object?> value) => Column(prefix + name, r => r.Result is { } result && of(result) is { } f ? value(f) : null);
        return
        [
            Figure("AllocatedBytes", f => f.AllocatedBytes), Figure("AllocatedBytesUnavailable", f => f.AllocatedBytesUnavailable),
            Figure("AllocationTickBytes", f => f.AllocationTickBytes), Figure("AllocationTickUnavailable", f => f.AllocationTickUnavailable),
            Figure("HeapCountStart", f => f.HeapCountStart), Figure("HeapCountEnd", f => f.HeapCountEnd),
            Figure("PeakWorkingSetBytes", f => f.PeakWorkingSetBytes),
            Figure("GcGen0", f => f.GcGen0), Figure("GcGen1", f => f.GcGen1), Figure("GcGen2", f => f.GcGen2), Figure("GcPauseMs", f => f.GcPauseMs),
            Figure("CpuTimeMs", f => f.CpuTimeMs), Figure("JitTimeMs", f => f.JitTimeMs), Figure("JitMethods", f => f.JitMethods),
        ];
    }

    private static ReportColumn<Run> Column(string header, Func<CombinationRun, object?> combination, Func<PeerRun, object?>? peer = null) =>
        new(header, run => Text(run.Measured is CombinationRun c ? combination(c) : peer?.Invoke((PeerRun)run.Measured)));

    /// <summary>A column every run has, a combination's or a peer's (MeasuredRun).</summary>
    private static ReportColumn<Run> Shared(string header, Func<MeasuredRun, object?> value) => new(header, run => Text(value(run.Measured)));

    private static string Text(object? value) => value switch
    {
        null => "",
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };
}
