using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>The "Keeping a copy fresh" table's columns (--follow), each declared once with its legend (as SummaryColumns).</summary>
public static class FollowColumns
{
    private const string LagLegend =
        "Lag is commit-to-applied on one clock (source and target are databases of one cluster): for every row still in the source whose last version was "
        + "committed while pgbench ran, the time the target committed that row's version (its commit record in the cluster's WAL, pg_walinspect) minus the source's "
        + "commit (pg_xact_commit_timestamp, track_commit_timestamp on), joined by key. Not the target's commit timestamp: a subscription commits with the source's. It covers "
        + "the last version of each surviving row; deletes and overwritten versions are not sampled. Percentiles are Perfolizer's sample quantiles; n is the sample.";

    private const string RateLegend =
        "Write rate is rows/s asked; pgbench's -R is that over the script's mean rows per transaction (users 2.76, orders 2.88). pgbench tps is what pgbench itself "
        + "reported achieving. Rows applied/s is the source table's inserted + updated + deleted rows (pg_stat_user_tables) over the time from the load's start "
        + "until the target caught up. Catch-up is the target's last commit of a sampled row minus the source's last: the time the target needed once writes stopped.";

    private const string VerifiedLegend =
        "Verified: after the load stopped the target equalled the source by the runner's count and checksum (the one every run uses) within the catch-up bound (120 s after the load stopped). After every run the runner checks that no slot, publication or subscription the mechanism made is left on either side; one left is named here and fails the session.";

    public static IReadOnlyList<ReportColumn<FollowRun>> All { get; } =
    [
        new("Table", r => r.Table),
        new("Mechanism", r => r.Mechanism),
        new("Write rate (rows/s)", r => Rows(r.WriteRate), RateLegend, Numeric: true),
        new("pgbench tps (asked)", r => r.PgbenchTps is { } tps ? $"{Number(tps, "N1")} ({Number(r.TransactionsPerSecondAsked, "N1")})" : $"n/a ({Number(r.TransactionsPerSecondAsked, "N1")})", Numeric: true),
        new("Lag p50", r => Ms(r.Lag?.P50Ms), LagLegend, Numeric: true),
        new("Lag p95", r => Ms(r.Lag?.P95Ms), Numeric: true),
        new("Lag p99", r => Ms(r.Lag?.P99Ms), Numeric: true),
        new("Lag max", r => Ms(r.Lag?.MaxMs), Numeric: true),
        new("n", r => r.Lag is { } lag ? Rows(lag.Count) : "0", Numeric: true),
        new("Rows applied/s", r => r.RowsAppliedPerSecond is { } rate ? Number(rate, "N0") : "n/a", Numeric: true),
        new("Catch-up", r => Ms(r.CatchUpMs), Numeric: true),
        new("Verified", r => (r.Verified ? "yes" : $"**no**: {r.Error}") + (r.LeftBehind is { } left ? $"; **left behind**: {left}" : ""), VerifiedLegend),
    ];

    private static string Ms(double? value) => value is { } ms ? ReportFormat.Ms(ms) : "n/a";
}
