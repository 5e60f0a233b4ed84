using SyncDataBenchmark.Runner.Report;
namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// Inserted, updated and deleted rows: a write load's asked mix (rows per transaction, its script's '-- mix:' line) or
/// the mix it achieved (rows, the source table's heap records in the WAL over the load).
/// </summary>
public sealed record WriteMix(double Inserted, double Updated, double Deleted)
{
    [System.Text.Json.Serialization.JsonIgnore]
    public double Total => Inserted + Updated + Deleted;

    /// <summary>"ins 43% / upd 43% / del 13%": each kind's share of the rows.</summary>
    public string Shares() => Total <= 0
        ? "none"
        : $"ins {Share(Inserted)} / upd {Share(Updated)} / del {Share(Deleted)}";

    private string Share(double part) => (part / Total).ToString("0%", System.Globalization.CultureInfo.InvariantCulture);
}
