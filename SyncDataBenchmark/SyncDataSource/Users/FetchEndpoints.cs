using SyncData.Shared;

namespace SyncDataSource.Users;

/// <summary>Finds every <see cref="IFetchEndpoint{TFetch}"/> by the fetch it serves; adding an approach adds its class.</summary>
public static class FetchEndpoints
{
    public static IReadOnlyDictionary<FetchApproach, Type> All { get; } = Approach.FindHalves(typeof(FetchEndpoints).Assembly, typeof(IFetchEndpoint<>));

    public static void MapAll(IEndpointRouteBuilder app)
    {
        foreach (var fetch in Approach.Fetches)
        {
            app.MapGet("/" + fetch.Route, ((IFetchEndpoint)Activator.CreateInstance(All[new FetchApproach(fetch.Name)])!).Handler);
        }
    }
}
