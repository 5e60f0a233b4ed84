using SyncData.Shared.Fetches;
using SyncDataSource.Replication;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>NpgsqlReplication's stream: GET ?slot=&amp;from=&amp;publication= (<see cref="ReplicationStreams.ServeAsync"/>).</summary>
public sealed class NpgsqlReplicationEndpoint : IFetchEndpoint<NpgsqlReplicationFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, string? slot, string? from, string? publication, ReplicationStreams streams, CancellationToken ct) =>
            streams.ServeAsync(table.Table, slot, from, http, ct, publication);

    /// <summary>A described table's stream (a folder table, a user's own): the same, the table read from the catalog.</summary>
    public Delegate DescribedHandler() =>
        (string table, HttpContext http, string? slot, string? from, string? publication, ReplicationStreams streams, DescribedTables tables, CancellationToken ct) =>
            DescribedTableEndpoints.ServeAsync(table, http, tables, ct, async t => await (await streams.ServeAsync(t, slot, from, http, ct, publication)).ExecuteAsync(http));
}
