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
        foreach (var table in ISourceTable.All.Select(t => t.Table.Name))
        {
            app.MapPost("/" + SourceRoutes.InTable(ReplicationRoutes.Ack, table),
                (string? slot, string? lsn, ReplicationStreams streams, CancellationToken ct) => streams.AcknowledgeAsync(slot, lsn, ct));
            app.MapDelete("/" + SourceRoutes.InTable(ReplicationRoutes.Drop, table),
                (string? slot, ReplicationStreams streams, CancellationToken ct) => streams.DropAsync(slot, ct));
        }

        return app;
    }
}
