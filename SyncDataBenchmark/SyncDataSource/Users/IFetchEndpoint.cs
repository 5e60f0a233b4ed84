using System.Reflection;
using SyncData.Shared;

namespace SyncDataSource.Users;

/// <summary>The server half of one fetch approach: maps its route(s). Carries <see cref="ApproachAttribute"/>.</summary>
public interface IFetchEndpoint
{
    void Map(IEndpointRouteBuilder app);
}

/// <summary>Finds every <see cref="IFetchEndpoint"/> by the fetch name it declares; adding an approach adds its class.</summary>
public static class FetchEndpoints
{
    public static IReadOnlyDictionary<FetchApproach, Type> All { get; } = Find();

    public static void MapAll(IEndpointRouteBuilder app)
    {
        foreach (var type in All.Values)
        {
            ((IFetchEndpoint)Activator.CreateInstance(type)!).Map(app);
        }
    }

    private static Dictionary<FetchApproach, Type> Find()
    {
        var found = new Dictionary<FetchApproach, Type>();
        foreach (var type in typeof(FetchEndpoints).Assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && typeof(IFetchEndpoint).IsAssignableFrom(t)))
        {
            var name = type.GetCustomAttribute<ApproachAttribute>()?.Fetch
                       ?? throw new InvalidOperationException($"{type.Name} implements {nameof(IFetchEndpoint)} but declares no [Approach(FetchApproach.…)].");
            if (!found.TryAdd(name, type))
            {
                throw new InvalidOperationException($"{found[name].Name} and {type.Name} both serve {name}.");
            }
        }

        // Every name the consumers can ask for must be served: refuse to start otherwise.
        var missing = Approaches.Fetches.Except(found.Keys).ToList();
        return missing.Count == 0
            ? found
            : throw new InvalidOperationException($"No server endpoint for fetch approach(es): {string.Join(", ", missing)}.");
    }
}
