using System.Reflection;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Shared;

namespace SomeService;

/// <summary>
/// Finds every fetch consumer (<see cref="IUserSource"/>) and writer (<see cref="IUserWriter"/>) in this assembly by
/// the name each declares, and registers it keyed by that name: adding an approach adds its class and nothing here.
/// </summary>
public static class ApproachRegistry
{
    public static IReadOnlyDictionary<FetchApproach, Type> Sources { get; } = Find<IUserSource, FetchApproach>(a => a.Fetch);

    public static IReadOnlyDictionary<InsertApproach, Type> Writers { get; } = Find<IUserWriter, InsertApproach>(a => a.Insert);

    /// <summary>Consumers are transient (each run gets a fresh typed HttpClient); writers hold no state.</summary>
    public static IServiceCollection AddApproaches(this IServiceCollection services)
    {
        foreach (var (name, type) in Sources)
        {
            services.AddKeyedTransient(typeof(IUserSource), name, type);
        }

        foreach (var (name, type) in Writers)
        {
            services.AddKeyedSingleton(typeof(IUserWriter), name, type);
        }

        return services;
    }

    private static Dictionary<TName, Type> Find<TInterface, TName>(Func<ApproachAttribute, TName?> nameOf) where TName : struct, Enum
    {
        var found = new Dictionary<TName, Type>();
        foreach (var type in typeof(ApproachRegistry).Assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && typeof(TInterface).IsAssignableFrom(t)))
        {
            var name = type.GetCustomAttribute<ApproachAttribute>() is { } attribute && nameOf(attribute) is { } declared
                ? declared
                : throw new InvalidOperationException($"{type.Name} implements {typeof(TInterface).Name} but declares no [Approach({typeof(TName).Name}.…)].");
            if (!found.TryAdd(name, type))
            {
                throw new InvalidOperationException($"{found[name].Name} and {type.Name} both declare the name {name}.");
            }
        }

        return found;
    }
}
