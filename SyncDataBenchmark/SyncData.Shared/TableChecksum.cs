using System.Text.Json.Serialization;

namespace SyncData.Shared;

/// <summary>What a table holds: its row count and content checksum (computed by SyncData.Postgres' UsersTable.ChecksumSql).</summary>
public sealed record TableChecksum(long Rows, string Checksum);

/// <summary>
/// SyncDataSource's answer to a run's verification request: its table's count and checksum and, because that request
/// is the last a run makes, what serving the run cost the source (<see cref="SourceRoutes.RunHeader"/>).
/// </summary>
/// <param name="Figures">The source's figures over the run's requests; null when the request belongs to no run, or see <paramref name="FiguresMissing"/>.</param>
/// <param name="FiguresMissing">Why a tagged run has no source figures (its window was never opened, or not cleanly).</param>
/// <param name="Snapshot">The snapshot the run read the source in (and this summary was taken in); null for a request of no run.</param>
public sealed record SourceSummary(long Rows, string Checksum, ServiceFigures? Figures = null, string? FiguresMissing = null, SourceSnapshot? Snapshot = null)
{
    [JsonIgnore]
    public TableChecksum Table => new(Rows, Checksum);
}

/// <summary>
/// The one state of the source a run read: the id pg_export_snapshot() gave it (every request of the run imported it),
/// the oldest transaction still running then (xmin: every transaction before it is visible, none after it) and the WAL
/// position when it was taken.
/// </summary>
public sealed record SourceSnapshot(string Id, string Xmin, string Lsn);
