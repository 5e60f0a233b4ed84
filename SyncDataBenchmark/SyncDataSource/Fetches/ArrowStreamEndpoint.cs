using Npgsql;
using SyncData.Shared.Fetches;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>
/// ArrowStream: the lab's own tables' rows as their written schemas build them, a described table's as its generated
/// rows class builds them (<see cref="DescribedArrowClasses"/>); <see cref="ArrowRowsStream"/> streams either.
/// </summary>
public sealed class ArrowStreamEndpoint : IFetchEndpoint<ArrowStreamFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct) =>
            ArrowRowsStream.WriteAsync(table.NewArrowRows(), table.Table.Name, http, dataSource, snapshots, ct);

    public Delegate DescribedHandler() =>
        (string table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, DescribedTables tables, DescribedArrowClasses arrow, CancellationToken ct) =>
            DescribedTableEndpoints.ServeAsync(table, http, tables, ct, t => DescribedAsync(arrow, t, http, dataSource, snapshots, ct));

    /// <summary>A described table in its derived schema; 422 naming the column when its type is one the generator does not map.</summary>
    private static Task DescribedAsync(DescribedArrowClasses arrow, SyncData.Postgres.SyncTable table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct) =>
        DescribedTableEndpoints.WithGeneratedAsync(() => arrow.Of(table), http, rows => ArrowRowsStream.WriteAsync(rows, table.Name, http, dataSource, snapshots, ct));
}
