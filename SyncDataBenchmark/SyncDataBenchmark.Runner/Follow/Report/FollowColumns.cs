using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>The "Keeping a copy fresh" table's columns (--follow), each declared once with its legend (as SummaryColumns).</summary>
public static class FollowColumns
{
    private const string LagLegend =
        "Lag is commit-to-applied on one clock (source and target are databases of one cluster): for every row still in the source whose last version was "
        + "committed while pgbench ran, the time the target committed that row's version (its commit record in the cluster's WAL, pg_walinspect) minus the source's "
        + "commit (pg_xact_commit_timestamp, track_commit_timestamp on), joined by key. Not the target's commit timestamp: a subscription commits with the source's. It covers "
        + "the last version of each surviving row; deletes and overwritten versions are not timed but counted (Timed: N of M). Percentiles are an HdrHistogram's of every timed change (records before it: Perfolizer's sample quantiles).";

    private const string RateLegend =
        "Write rate is rows/s asked; pgbench's -R (open loop: each transaction starts on its schedule, however late the one before) is that over the script's mean rows per transaction, which each table's write load declares in its header (sql/follow/<table>.pgbench.sql, '-- rows per transaction:'). pgbench tps is what pgbench itself "
        + "reported achieving. Written/s is the source table's inserted + updated + deleted rows (its heap records in the WAL, pg_walinspect) over the load's length: the rate achieved; the mix is "
        + "the share of each kind the script asks for ('-- mix:') → the share written. Timed is the changes the lag sample timed of the changes written (the rest: deletes and "
        + "overwritten versions, counted, not timed). Catch-up is the target's last commit of a sampled row minus the source's last: the time the target needed once writes stopped. "
        + "Drain (--drain): the mechanism stopped, pgbench wrote a backlog unthrottled (its changes counted), the mechanism started again; the backlog over the time from the restart "
        + "to the target's last commit of a backlog row (its commit record in the WAL), and the whole system's CPU per drained change over it (the services the mechanism uses and the "
        + "cluster's processes but the runner's and pgbench's, /proc).";

    private const string VerifiedLegend =
        "Verified: after the load stopped the target equalled the source by the runner's count and checksum (the one every run uses) within the catch-up bound (120 s after the load stopped). After every run the runner checks that no slot, publication or subscription the mechanism made is left on either side; one left is named here and fails the session.";

    public static IReadOnlyList<ReportColumn<FollowRun>> All { get; } =
    [
        new("Table", r => r.Table),
        new("Mechanism", r => r.Mechanism),
        new("Write rate (rows/s)", r => Rows(r.WriteRate), RateLegend, Numeric: true),
        new("Repeat", r => $"{r.Repeat}", Numeric: true),
        new("pgbench tps (asked)", r => r.PgbenchTps is { } tps ? $"{Number(tps, "N1")} ({Number(r.TransactionsPerSecondAsked, "N1")})" : $"n/a ({Number(r.TransactionsPerSecondAsked, "N1")})", Numeric: true),
        new("Written/s", r => r.RowsWrittenPerSecond is { } w ? Number(w, "N0") : "n/a", Numeric: true),
        new("Mix (asked → written)", r => r.MixAsked is { } asked && r.MixAchieved is { } written ? $"{asked.Shares()} → {written.Shares()}" : "n/a"),
        new("Lag p50", r => Ms(r.Lag?.P50Ms), LagLegend, Numeric: true),
        new("Lag p95", r => Ms(r.Lag?.P95Ms), Numeric: true),
        new("Lag p99", r => Ms(r.Lag?.P99Ms), Numeric: true),
        new("Lag max", r => Ms(r.Lag?.MaxMs), Numeric: true),
        new("Timed", r => r.SourceRowsWritten is { } m ? $"{Rows(r.Lag?.Count ?? 0)} of {Rows(m)}" : r.Lag is { } lag ? Rows(lag.Count) : "0", Numeric: true),
        new("Catch-up", r => Ms(r.CatchUpMs), Numeric: true),
        new("Drain", r => r.Drain is { } d ? d.RowsPerSecond is { } rate ? $"{Number(rate, "N0")} rows/s ({Rows(d.BacklogChanges)})" : $"**no**: {d.Error}" : "n/a", Numeric: true),
        new("CPU/change (drain)", r => r.Drain?.CpuPerChangeUs is { } us ? $"{Number(us, "N0")} µs" : r.Drain?.Cpu?.Missing ?? "n/a", Numeric: true),
        new("Verified", r => (r.Verified ? "yes" : $"**no**: {r.Error}") + (r.LeftBehind is { } left ? $"; **left behind**: {left}" : ""), VerifiedLegend),
    ];

    /// <summary>The console's columns where <see cref="All"/> does not fit: the run, the median and tail lag, the catch-up, the verdict.</summary>
    public static IReadOnlyList<ReportColumn<FollowRun>> Narrow { get; } = [.. All.Where(c => c.Header is "Table" or "Mechanism" or "Write rate (rows/s)" or "Lag p50" or "Lag p99" or "Catch-up" or "Verified")];

    private const string StagesLegend =
        "Where NpgsqlReplication's lag goes, per source transaction committed while pgbench ran and applied by its follower (n), as p50 / p95 / p99: "
        + "decode, the source's commit (pgoutput's commit timestamp) to SyncDataSource receiving the Commit message (the walsender's decoding and sending, Npgsql's parsing); "
        + "relay, to SomeService reading the commit frame (JSON, flush, HTTP/2, parsing); queue, to the target transaction of its batch beginning (frames ahead of it, "
        + "the batch before it and its acknowledgement); apply, to that transaction's commit returning (delete, COPY into staging, MERGE, LSN, commit). The four "
        + "add up to the transaction's lag as SomeService sees it (the WAL-timed Lag above ends at the commit record, a little before the commit returns). "
        + "One host's clock (PostgreSQL's and both services'): on two hosts the decode/relay split would need their clocks synced. Ack is what the follower spent acknowledging "
        + "after each batch (the request's round trip, which the next batch waited for, until the acknowledgements went off the apply path; since, the hand-over alone), "
        + "and the batch size its transactions and changes, each over the run's batches. "
        + ReportFormat.None + ": the mechanism has no stages (or the record predates them).";

    /// <summary>The "Where NpgsqlReplication's lag goes" table's columns: the run, then each stage's quantiles (— for a run without stages).</summary>
    public static IReadOnlyList<ReportColumn<FollowRun>> Stages { get; } =
    [
        new("Table", r => r.Table),
        new("Mechanism", r => r.Mechanism),
        new("Write rate (rows/s)", r => Rows(r.WriteRate), Numeric: true),
        new("n (transactions)", r => r.Stages is { } s ? Rows(s.Transactions) : None, StagesLegend, Numeric: true),
        .. FollowStage.All.Select(stage => new ReportColumn<FollowRun>(stage.Title, r => Quantiles(r.Stages?[stage]), Numeric: true)),
        new("Batches", r => r.Stages is { } s ? Rows(s.Batches) : None, Numeric: true),
        new("Transactions a batch", r => Counts(r.Stages?.BatchTransactions), Numeric: true),
        new("Changes a batch", r => Counts(r.Stages?.BatchChanges), Numeric: true),
    ];

    private static string Quantiles(StageQuantiles? q) => q is null ? None : $"{Number(q.P50, "0.0")} / {Number(q.P95, "0.0")} / {Number(q.P99, "0.0")} ms";

    private static string Counts(StageQuantiles? q) => q is null ? None : $"{Count(q.P50)} / {Count(q.P95)} / {Count(q.P99)}";

    private static string Ms(double? value) => value is { } ms ? ReportFormat.Ms(ms) : "n/a";
}
