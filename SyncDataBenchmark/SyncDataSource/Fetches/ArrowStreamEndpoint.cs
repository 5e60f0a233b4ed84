using Npgsql;
using SyncData.Shared.Fetches;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>ArrowStream for the lab's own tables: each table's rows as its written schema builds them (<see cref="ArrowRowsStream"/> streams them).</summary>
public sealed class ArrowStreamEndpoint : IFetchEndpoint<ArrowStreamFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct) =>
            ArrowRowsStream.WriteAsync(table.NewArrowRows(), table.Table.Name, http, dataSource, snapshots, ct);
}
