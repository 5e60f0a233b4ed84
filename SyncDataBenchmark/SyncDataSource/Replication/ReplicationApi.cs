using SyncData.Shared;
using SyncDataSource.Tables;

namespace SyncDataSource.Replication;

/// <summary>NpgsqlReplication's routes beside its stream, under each table's name: the acknowledgement and the slot's removal.</summary>
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
        var routes = ISourceTable.All.Select(t => (Ack: SourceRoutes.InTable(ReplicationRoutes.Ack, t.Table.Name), Drop: SourceRoutes.InTable(ReplicationRoutes.Drop, t.Table.Name)))
            .Append((SourceRoutes.AnyTable(ReplicationRoutes.Ack), SourceRoutes.AnyTable(ReplicationRoutes.Drop)));
        foreach (var (ack, drop) in routes)
        {
            app.MapPost("/" + ack,
                (string? slot, string? lsn, ReplicationStreams streams, CancellationToken ct) => streams.AcknowledgeAsync(slot, lsn, ct));
            app.MapDelete("/" + drop,
                (string? slot, ReplicationStreams streams, CancellationToken ct) => streams.DropAsync(slot, ct));
        }

        return app;
    }
}
