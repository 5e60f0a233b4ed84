using SyncDataSource.Runs;

namespace SyncDataSource.Tables;

/// <summary>A described table's rows as the source reads them through the classes generated for it, whatever their type (<see cref="DescribedSourceRows{TRow}"/>).</summary>
public interface IDescribedSourceRows
{
    /// <summary>EFStream: the table as one JSON array, read through the generated EF context in the run's snapshot.</summary>
    Task StreamAsync(HttpContext http, RunSnapshots snapshots, CancellationToken ct);
}
