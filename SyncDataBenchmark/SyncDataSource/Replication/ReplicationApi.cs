using SyncData.Shared;
using SyncDataSource.Fetches;
using SyncDataSource.Tables;

namespace SyncDataSource.Replication;

/// <summary>
/// NpgsqlReplication's routes, under each table's name: the stream (<see cref="ReplicationStreams.ServeAsync"/>), the
/// acknowledgement and the slot's removal. Following is its own part, not a fetch: no run asks for it.
/// </summary>
public static class ReplicationApi
{
    public static IServiceCollection AddReplication(this IServiceCollection services)
    {
        services.AddOptions<ReplicationOptions>().BindConfiguration(ReplicationOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        return services.AddSingleton<ReplicationStreams>();
    }

    public static IEndpointRouteBuilder MapReplicationApi(this IEndpointRouteBuilder app)
    {
        // Each built-in table's routes, and any other table's (its name a route parameter; the literal routes win).
        foreach (var table in ISourceTable.All.Select(t => t.Table))
        {
            app.MapGet("/" + SourceRoutes.InTable(ReplicationRoutes.Stream, table.Name),
                (HttpContext http, string? slot, string? from, string? publication, ReplicationStreams streams, CancellationToken ct) =>
                    streams.ServeAsync(table, slot, from, http, ct, publication));
            MapAcknowledgeAndDrop(app, SourceRoutes.InTable(ReplicationRoutes.Ack, table.Name), SourceRoutes.InTable(ReplicationRoutes.Drop, table.Name));
        }

        // A described table's stream (a folder table, a user's own): the same, the table read from the catalog.
        app.MapGet("/" + SourceRoutes.AnyTable(ReplicationRoutes.Stream),
            (string table, HttpContext http, string? slot, string? from, string? publication, ReplicationStreams streams, DescribedTables tables, CancellationToken ct) =>
                DescribedTableEndpoints.ServeAsync(table, http, tables, ct, async t => await (await streams.ServeAsync(t, slot, from, http, ct, publication)).ExecuteAsync(http)));
        MapAcknowledgeAndDrop(app, SourceRoutes.AnyTable(ReplicationRoutes.Ack), SourceRoutes.AnyTable(ReplicationRoutes.Drop));
        return app;
    }

    private static void MapAcknowledgeAndDrop(IEndpointRouteBuilder app, string ack, string drop)
    {
        app.MapPost("/" + ack,
            (string? slot, string? lsn, ReplicationStreams streams, CancellationToken ct) => streams.AcknowledgeAsync(slot, lsn, ct));
        app.MapDelete("/" + drop,
            (string? slot, ReplicationStreams streams, CancellationToken ct) => streams.DropAsync(slot, ct));
    }
}
