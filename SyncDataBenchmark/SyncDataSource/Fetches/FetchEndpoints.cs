using SyncData.Shared;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>Finds every <see cref="IFetchEndpoint{TFetch}"/> by the fetch it serves; adding an approach adds its class.</summary>
public static class FetchEndpoints
{
    public static IReadOnlyDictionary<FetchApproach, Type> All { get; } = ApproachCatalog.FindHalves(typeof(FetchEndpoints).Assembly, typeof(IFetchEndpoint<>));

    /// <summary>
    /// Each fetch for each table, at the fetch's route under the table's name; and, where the fetch serves a described
    /// table, under any other name (a built-in table's literal route wins over it).
    /// </summary>
    public static void MapAll(IEndpointRouteBuilder app)
    {
        foreach (var fetch in ApproachCatalog.DeclaredFetches)
        {
            var endpoint = (IFetchEndpoint)Activator.CreateInstance(All[new FetchApproach(fetch.Name)])!;
            foreach (var table in ISourceTable.All)
            {
                app.MapGet("/" + SourceRoutes.InTable(fetch.Route!, table.Table.Name), table.HandlerOf(endpoint));
            }

            if (endpoint.DescribedHandler() is { } described)
            {
                app.MapGet("/" + SourceRoutes.AnyTable(fetch.Route!), described);
            }
        }
    }
}
