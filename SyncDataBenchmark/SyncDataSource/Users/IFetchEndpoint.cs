using System.Reflection;
using SyncData.Shared;

namespace SyncDataSource.Users;

/// <summary>
/// The server half of one fetch approach: its handler. Carries <see cref="ApproachAttribute"/> with the same name
/// (and route) as SomeService's consumer; a fast test (ApproachRegistryTests) holds the two halves together.
/// </summary>
public interface IFetchEndpoint
{
    /// <summary>The GET handler, mapped by <see cref="FetchEndpoints"/> at the route the class declares (or derives, <see cref="SourceRoutes.Of"/>).</summary>
    Delegate Handler { get; }
}

/// <summary>Finds every <see cref="IFetchEndpoint"/> by the fetch name it declares; adding an approach adds its class.</summary>
public static class FetchEndpoints
{
    public static IReadOnlyDictionary<FetchApproach, (Type Type, ApproachInfo Info)> All { get; } = Find();

    public static void MapAll(IEndpointRouteBuilder app)
    {
        // Tagged requests to a fetch are part of a run, which SyncDataSource measures (RunMeasurement).
        var fetches = app.MapGroup("").WithMetadata(new Measurement.RunMeasurementApi.Measured());
        foreach (var (type, info) in All.Values)
        {
            fetches.MapGet("/" + info.Route, ((IFetchEndpoint)Activator.CreateInstance(type)!).Handler);
        }
    }

    private static Dictionary<FetchApproach, (Type, ApproachInfo)> Find() =>
        Approach.Find(typeof(FetchEndpoints).Assembly, typeof(IFetchEndpoint), ApproachKind.Fetch).ToDictionary(f => new FetchApproach(f.Info.Name), f => (f.Type, f.Info));
}
