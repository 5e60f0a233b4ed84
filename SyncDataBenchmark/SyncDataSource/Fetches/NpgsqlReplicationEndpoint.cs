using SyncData.Shared.Fetches;
using SyncDataSource.Replication;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>NpgsqlReplication's stream: GET ?slot=&amp;from= (<see cref="ReplicationStreams.ServeAsync"/>).</summary>
public sealed class NpgsqlReplicationEndpoint : IFetchEndpoint<NpgsqlReplicationFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, string? slot, string? from, ReplicationStreams streams, CancellationToken ct) => streams.ServeAsync(table.Table, slot, from, http, ct);
}
