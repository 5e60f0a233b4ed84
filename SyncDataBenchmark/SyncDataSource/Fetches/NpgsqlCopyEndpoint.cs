using Npgsql;
using SyncData.Shared.Fetches;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>NpgsqlCopy: the table's binary COPY relayed as bytes (<see cref="CopyRelay"/>).</summary>
public sealed class NpgsqlCopyEndpoint : IFetchEndpoint<NpgsqlCopyFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct) => CopyRelay.RelayAsync(table.Table.CopyOutBinary, http, dataSource, snapshots, ct);

    /// <summary>A described table's binary COPY, relayed as bytes: no row type needed.</summary>
    public Delegate DescribedHandler() =>
        (string table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, DescribedTables tables, CancellationToken ct) =>
            DescribedTableEndpoints.ServeAsync(table, http, tables, ct, t => CopyRelay.RelayAsync(t.CopyOutBinary, http, dataSource, snapshots, ct));
}
