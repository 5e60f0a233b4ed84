using SyncDataBenchmark.Runner.Report;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>The outage table's columns (--outage), each declared once with its legend, as FollowColumns.</summary>
public static class FollowOutageColumns
{
    private const string OutageLegend =
        "After each run's catch-up the mechanism stopped applying for the outage while pgbench wrote on at the run's rate: NpgsqlReplication's follower stopped "
        + "(SomeService's DELETE /follow without drop: the slot and the target's stored LSN stay), the subscription disabled (ALTER SUBSCRIPTION … DISABLE), the poll "
        + "loop stopped (the target's watermark stays). WAL written is the source's WAL over the outage's load; WAL held is pg_current_wal_lsn() minus the slot's "
        + "restart_lsn at its end, what the source cannot recycle while nobody reads the slot (none: the polled change log has no slot; its log table grows instead). "
        + "Recovery is from the mechanism's start again until the target equalled the source by the runner's checksum, to within the polling of that checksum "
        + "(every 200 ms, or twice a checksum's time); Verified as in the table above.";

    public static IReadOnlyList<ReportColumn<FollowRun>> All { get; } =
    [
        new("Table", r => r.Table),
        new("Mechanism", r => r.Mechanism),
        new("Write rate (rows/s)", r => Rows(r.WriteRate), Numeric: true),
        new("Outage", r => $"{r.Outage!.Seconds:0.#} s", OutageLegend, Numeric: true),
        new("WAL written", r => Bytes(r.Outage!.WalWrittenBytes), Numeric: true),
        new("WAL held", r => r.Outage!.WalHeldBytes is { } held ? Bytes(held) : "none (no slot)", Numeric: true),
        new("Recovery", r => r.Outage!.RecoveryMs is { } ms ? Ms(ms) : "n/a", Numeric: true),
        new("Verified", r => r.Outage!.Verified ? "yes" : $"**no**: {r.Outage.Error}"),
    ];
}
