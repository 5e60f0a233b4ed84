using SyncData.Shared.Fetches;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>EFStream: the table as one JSON array streamed as EF reads it (<see cref="JsonRowStream"/>).</summary>
public sealed class EFStreamEndpoint : IFetchEndpoint<EFStreamFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, SendableDbContext db, RunSnapshots snapshots, CancellationToken ct) => JsonRowStream.WriteAsync(table.Rows, http, db, snapshots, ct);

    /// <summary>A described table streamed through its generated classes (<see cref="DescribedRowClasses"/>).</summary>
    public Delegate DescribedHandler() =>
        (string table, HttpContext http, RunSnapshots snapshots, DescribedTables tables, DescribedRowClasses classes, CancellationToken ct) =>
            DescribedTableEndpoints.ServeAsync(table, http, tables, ct, t => DescribedTableEndpoints.WithRowsAsync(classes, t, http, rows => rows.StreamAsync(http, snapshots, ct)));
}
