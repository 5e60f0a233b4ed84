using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The summary table's columns, each declared once: header, cell, legend, numeric. This is the one place a figure or a
/// dimension joins the reports: add a column here (a new dimension of the runs is one more column, and one more key
/// in SummaryTable's grouping), and results.md, the console and the tables' JSON the pictures read all carry it.
/// </summary>
public static class SummaryColumns
{
    private const string MediansLegend =
        "**Memory and GC columns are per-run medians** over the successful timed runs, not sums: the original summed its 3 runs, "
        + "so multiply allocation, collection and pause figures by 3 to compare with it. Physical Memory is the highest working set "
        + "sampled (every 50 ms) during the run, not the process lifetime peak. GC collections are exclusive per generation.";

    /// <summary>ServiceFigures.AllocationTickPrecisionBytes in words.</summary>
    public const string TickPrecisionText = "±(1% + 512 KiB per GC heap, at least 1 MiB)";

    private const string AllocatedLegend =
        "Memory Allocated is GC.GetTotalAllocatedBytes over the run where that is exact. Under DATAS it is not when the GC heap "
        + "count changed during the run (it sums only the heaps in use: dotnet/runtime#131069, fixed after the runtime used here); "
        + "then the cell shows the sum of the runtime's allocation events (GCAllocationTick, one per ~100 KiB per heap), "
        + "marked \"(tick sum)\", which does not depend on the heap count and is within " + TickPrecisionText + " of the bytes allocated "
        + "(docs/measuring.md). \"(k/n runs)\" marks a median over only the k runs that have the figure shown; \"n/a\" says why neither figure could be had.";

    private const string RankLegend =
        "Rank orders the combinations by median time. Every ratio is median/median: Ratio to fastest divides a row's median by the fastest combination's; "
        + "Ratio to psql binary by the psql binary pipe's **at the same scope** (Time scope), in brackets its interval: each median's 97.5% interval "
        + "(Harrell-Davis, Maritz-Jarrett; Perfolizer), the case's low end over the pipe's high end and its high end over the pipe's low end, which together "
        + "cover the ratio with at least 95%. \"target statements\" is the target's own "
        + "clock from its first statement (truncate) to its commit, as SomeService measures a run and as the psql peers read "
        + "clock_timestamp() around their statements; \"whole command\" is a peer's whole command, process starts and connections "
        + "included, compared with the psql binary pipe's whole command and not with the fastest combination.";

    private const string RunsLegend =
        "Runs is the successful timed runs (n) and why the case stopped there: \"width\" its ratio's interval narrowed to the target width "
        + "(--ci-width), \"budget: few runs\" its --case-budget seconds ran out first (the interval is wider than the target: read it), "
        + "\"max\" --max-repeat, \"apart\" the test told it from every other case already (no close call: more runs would change no verdict), "
        + "\"once: not compared\" the budget's plan measured it once (its runs did not fit). Below " + RunStatistics.MinTestRunsText + " runs a side nothing is compared: " + RunStatistics.TooFewRuns + ". Not told apart from lists the combinations a Mann-Whitney test with a " + RunStatistics.TieThreshold
        + " threshold (Perfolizer's SimpleEquivalenceTest, as BenchmarkDotNet) cannot tell from this one: ties. JIT-unsettled counts timed runs in which "
        + "SomeService compiled longer than the record's JIT threshold (and than 1% of the run): they are left out of every statistic here and the "
        + "session ran a further run in place of each.";

    private const string PeersLegend =
        "Peers run in the same session on the same databases. Before each peer run (warm-up and timed) the runner empties the "
        + "target and plants a sentinel row (untimed), and after it checks the target against the source itself (count and "
        + "checksum), whatever the tool reported. `psql-binary`/`psql-text`: `psql \\copy to stdout | psql \\copy from stdin`, truncate + "
        + "copy in one target transaction; `psql-binary-tuned`: the same plus the manual's \"Populating a Database\" advice (drop the "
        + "primary key, maintenance_work_mem 1GB, COPY FREEZE, re-add the key); `postgres-fdw`: the target pulls with INSERT … SELECT "
        + "from a postgres_fdw foreign table; `logical-replication`: a subscription's initial table synchronisation, timed until the "
        + "table is synchronised; `pgcopydb`: psql truncate, then `pgcopydb copy table-data` (COPY, then VACUUM ANALYZE; its log "
        + "is scanned for errors since it exits 0 on a failed COPY). Set-up and tear-down (foreign server, publication, slot, "
        + "subscription drop) are untimed. They run no .NET process, so their memory and GC cells are empty.";

    private const string PictureLegend = "Each TestCase number links to its picture: both services' working set, allocation rate and GC collections over the best run.";

    /// <summary>"[7](7.png)", "7" without pictures, or "peer: psql binary pipe"; <paramref name="pictures"/> is the pictures' folder as seen from the page ("" beside it).</summary>
    public static ReportColumn<SummaryRow> TestCase(bool charts, string pictures = "") => new("TestCase",
        r => r.Kind == SummaryRow.Kinds.Peer ? $"peer: {r.Title}" : charts ? $"[{r.Number}]({pictures}{r.Picture})" : $"{r.Number}",
        charts ? PictureLegend : null);

    public static ReportColumn<SummaryRow> Case { get; } = new("Case", r => r.ProfiledLabel);

    public static ReportColumn<SummaryRow> Rank { get; } = new("Rank", r => r.Rank is { } rank ? Count(rank) : None, RankLegend, Numeric: true);

    public static ReportColumn<SummaryRow> Best(int repeat) => new("Best",
        r => (r.BestMs is { } best ? Ms(best) + Change(best, r.Baseline?.BestMs) : NoTime(r)),
        $"Process Time is SomeService's own measure of truncate, fetch, write and commit, excluding the verification query: the median of the successful timed runs "
        + $"(at least {repeat}; Runs says how many). Best is the fastest of them, shown beside it and used for nothing else; StdDev is the sample standard deviation.", Numeric: true);

    public static ReportColumn<SummaryRow> Median { get; } = new("Process Time (median)",
        r => r.MedianMs is { } m ? Ms(m) + Change(m, r.Baseline?.MedianMs) : NoTime(r), Numeric: true);

    /// <summary>
    /// Why a row has no time: not run, every run still compiling (left out of every statistic: JIT-unsettled, their
    /// median shown beside it for what it is), or none succeeded.
    /// </summary>
    private static string NoTime(SummaryRow r) =>
        r.TimedRuns == 0 && r.UnsettledRuns is > 0 and var n
            ? $"all {n} still compiling{(Statistics.Median(r.UnsettledDurations) is { } m ? $" ({Ms(m)}, left out)" : "")}"
            : r.TimedRuns == 0 ? "not run" : "no successful run";

    public static ReportColumn<SummaryRow> Runs { get; } = new("Runs", r => r.Succeeded == 0 ? None : r.Stopped switch
    {
        "width" => $"{r.Succeeded} (width)",
        "budget" => $"{r.Succeeded} (budget: few runs)",
        "max" => $"{r.Succeeded} (max)",
        "apart" => $"{r.Succeeded} (apart)",
        SummaryTable.Once => $"{r.Succeeded} (once: not compared)",
        "failures" => $"{r.Succeeded} (stopped: {r.Failures} failed)",
        _ => Count(r.Succeeded),
    }, RunsLegend);

    public static ReportColumn<SummaryRow> Unsettled { get; } = new("JIT-unsettled", r => r.UnsettledRuns is { } n ? Count(n) : None, RunsLegend, Numeric: true);

    public static ReportColumn<SummaryRow> Ties { get; } = new("Not told apart from", r => r.TiedWith.Count == 0 ? None : string.Join(", ", r.TiedWith.Select(CaseNumber)), RunsLegend);

    public static ReportColumn<SummaryRow> StdDev { get; } = new("StdDev", r => r.StdDevMs is { } sd ? Ms(sd) : None, Numeric: true);

    /// <summary>One column per RunDimension the record names: the row's value; peers only those they vary along.</summary>
    public static IReadOnlyList<ReportColumn<SummaryRow>> Dimensions(BenchParameters parameters) =>
        RunDimension.Shown(parameters).Select(d => new ReportColumn<SummaryRow>(d.Header, r => r.Dimensions.GetValueOrDefault(d.Header, None), d.Legend)).ToList();

    public static ReportColumn<SummaryRow> Failures { get; } = new("Failures", r => Count(r.Failures) + (r.WarmupFailed ? " + warm-up" : ""),
        "Failures counts failed or unverified timed runs; \"+ warm-up\" marks a failed warm-up.", Numeric: true);

    public static ReportColumn<SummaryRow> Verified { get; } = new("Verified", r => $"{r.Succeeded}/{r.TimedRuns}");

    public static ReportColumn<SummaryRow> RatioToFastest { get; } = new("Ratio to fastest (median/median)", r => r.RatioToFastest is { } x ? Times(x) : None, RankLegend, Numeric: true);

    public static ReportColumn<SummaryRow> RatioToPsqlBinary { get; } = new("Ratio to psql binary (median/median)",
        r => r.RatioToPsqlBinary is not { } x ? None : Times(x) + (r.RatioInterval is { } i ? $" [{Number(i.Lower, "0.00")}–{Number(i.Upper, "0.00")}]" : ""),
        RankLegend, Numeric: true);

    public static ReportColumn<SummaryRow> TimeScope { get; } = new("Time scope", r => r.Scope switch
    {
        PeerScopes.WholeCommand => "whole command",
        PeerScopes.TargetStatements when r is { Kind: SummaryRow.Kinds.Peer, BestWallMs: { } wall } => $"target statements (whole command {Ms(wall)})",
        _ => "target statements",
    }, RankLegend + "\n" + PeersLegend);

    /// <summary>Time scope on a user's own table when no peer ran there (records before the read-only peers ran on it): no legend on peers that did not run, and why the ratio column is empty (issue 62).</summary>
    public static ReportColumn<SummaryRow> TimeScopeWithoutPeers { get; } = TimeScope with
    {
        Legend = RankLegend + "\nNo peer runs on a table of your own (docs/own-table.md), so there is no psql pipe "
                 + "to take a ratio to: Ratio to psql binary is " + None + " in every row.",
    };

    /// <summary>Time scope on a user's own table with the read-only peers run on it: its copy in the target is emptied before each run, no sentinel row planted.</summary>
    public static ReportColumn<SummaryRow> TimeScopeOnOwnTable { get; } = TimeScope with
    {
        Legend = RankLegend + "\n" + PeersLegend.Replace("empties the target and plants a sentinel row (untimed)",
            "empties your table's copy in the target (untimed)", StringComparison.Ordinal),
    };

    /// <summary>Memory Allocated, Physical Memory (peak), GC Collections, GC Pause of one service; against the baseline row in the profile table.</summary>
    public static IReadOnlyList<ReportColumn<SummaryRow>> Service(string name, Func<SummaryRow, ServiceMedians?> of) =>
    [
        new($"{name} Memory Allocated", r => of(r) is { } f ? Allocated(f) + (f.ShownAllocatedBytes is { } a ? Change(a, Base(r, of)?.ShownAllocatedBytes) : "") : None,
            MediansLegend + "\n" + AllocatedLegend, Numeric: true),
        new($"{name} Physical Memory (peak)", r => of(r) is { } f ? Bytes(f.PeakWorkingSetBytes) + Change(f.PeakWorkingSetBytes, Base(r, of)?.PeakWorkingSetBytes) : None,
            MediansLegend, Numeric: true),
        new($"{name} GC Collections", r => of(r) is { } f ? Collections(f, Base(r, of)) : None, MediansLegend),
        new($"{name} GC Pause", r => of(r) is { } f ? Ms(f.GcPauseMs) + Change(f.GcPauseMs, Base(r, of)?.GcPauseMs) : None, MediansLegend, Numeric: true),
    ];

    /// <summary>The headline table of results.md (README's table is a copy of it).</summary>
    public static IReadOnlyList<ReportColumn<SummaryRow>> Headline(BenchParameters parameters, bool charts) =>
    [
        TestCase(charts), Rank, new("FetchApproach", r => r.Fetch), new("InsertApproach", r => r.Insert), Median, RatioToPsqlBinary, Runs, .. Dimensions(parameters),
        .. Service("SomeService", r => r.SomeService), .. Service("SyncDataSource", r => r.SyncDataSource),
        Best(parameters.Repeat), StdDev, Failures, Verified, RatioToFastest, parameters.OwnTable is null ? TimeScope : parameters.Peers ? TimeScopeOnOwnTable : TimeScopeWithoutPeers, Unsettled, Ties,
    ];

    /// <summary>
    /// README's copy of the headline (ReadmeBlocks): the original's columns with the median, the ratio and n first and
    /// Best after them; the rest (dimensions, StdDev, ties, JIT) stay in results.md.
    /// </summary>
    public static IReadOnlyList<ReportColumn<SummaryRow>> Readme(bool charts, string pictures) =>
    [
        TestCase(charts, pictures), Rank, new("FetchApproach", r => r.Fetch), new("InsertApproach", r => r.Insert), Median, RatioToPsqlBinary, Runs,
        .. Service("SomeService", r => r.SomeService), .. Service("SyncDataSource", r => r.SyncDataSource), Best(0), Verified,
    ];

    /// <summary>The cases measured under every profile, each row against its main-profile row (SummaryRow.Baseline).</summary>
    public static IReadOnlyList<ReportColumn<SummaryRow>> Profiles(int repeat, bool charts) =>
    [
        new("TestCase", r => $"{TestCase(charts).Cell(r)} {r.Title}"),
        new("Profile", r => r.MainProfile ? $"**{r.Profile}**" : r.Profile),
        Median, Runs, .. Service("SomeService", r => r.SomeService), .. Service("SyncDataSource", r => r.SyncDataSource), Best(repeat), Verified,
    ];

    /// <summary>Per combination: bytes per row on the wire and decoded, and both services' CPU and JIT time.</summary>
    public static IReadOnlyList<ReportColumn<SummaryRow>> WireAndCpu(BenchParameters parameters) =>
    [
        Case, .. Dimensions(parameters),
        new("Wire bytes/row", r => r.WireBytesPerRow is { } w ? Number(w, "0.0") : None, Numeric: true),
        new("Body bytes/row", r => r.BodyBytesPerRow is { } b ? Number(b, "0.0") : None, Numeric: true),
        new("Wire / body", r => r is { WireBytesPerRow: { } w, BodyBytesPerRow: > 0 and var b } ? Number(w / b, "0.000") : None, Numeric: true),
        Time("SomeService CPU", r => r.SomeService?.CpuTimeMs), Time("SyncDataSource CPU", r => r.SyncDataSource?.CpuTimeMs),
        Time("SomeService JIT", r => r.SomeService?.JitTimeMs), Time("SyncDataSource JIT", r => r.SyncDataSource?.JitTimeMs),
    ];

    /// <summary>One link's table: what crossed it each way, per row, and the least time its rate allows.</summary>
    public static IReadOnlyList<ReportColumn<SummaryRow>> Link(long? rate)
    {
        const string loopback = "n/a (loopback)";
        string Traffic(SummaryRow r, Func<LinkTraffic, string> cell) => rate is null ? loopback : r.Traffic is { } t ? cell(t) : None;
        return
        [
            Case, Median, new("Best", r => Best(0).Cell(r), Numeric: true),
            new("Source → target", r => Traffic(r, t => Bytes(t.SourceToTargetBytes)), Numeric: true),
            new("Target → source", r => Traffic(r, t => Bytes(t.TargetToSourceBytes)), Numeric: true),
            new("Bytes per row", r => Traffic(r, t => t.BytesPerRow is { } perRow ? Number(perRow, "0.#") : None), Numeric: true),
            new("Link floor", r => Traffic(r, t => Ms(t.FloorMs(rate!.Value))), Numeric: true),
            Verified,
        ];
    }

    /// <summary>"#7" for a combination's key in the row's split ("NpgsqlCopy:EFBulk" → its TestCase number), the key itself otherwise.</summary>
    private static string CaseNumber(string key) => CaseNumbers.Runnable.FirstOrDefault(c => key.StartsWith(c.Key + "[", StringComparison.Ordinal) || key == c.Key) is { } c ? $"#{c.Number}" : key;

    private static ReportColumn<SummaryRow> Time(string header, Func<SummaryRow, double?> ms) => new(header, r => ms(r) is { } x ? Ms(x) : None, Numeric: true);

    private static ServiceMedians? Base(SummaryRow row, Func<SummaryRow, ServiceMedians?> of) => row.Baseline is { } b ? of(b) : null;

    private static string Collections(ServiceMedians f, ServiceMedians? vs) =>
        $"gen0: {Count(f.GcGen0)}, gen1: {Count(f.GcGen1)}, gen2: {Count(f.GcGen2)}"
        + (vs is null ? "" : $" ({Signed(f.GcGen0 - vs.GcGen0)}/{Signed(f.GcGen1 - vs.GcGen1)}/{Signed(f.GcGen2 - vs.GcGen2)})");
}
