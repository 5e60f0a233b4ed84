using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Shared;

namespace SomeService;

/// <summary>
/// Finds every fetch consumer (<see cref="IFetchConsumer{TFetch}"/>, by the fetch it names) and writer
/// (<see cref="ITableWriter"/>, by the name it declares with <see cref="ApproachAttribute"/>) in this assembly, registers
/// each keyed by that name, and builds the catalogue from the fetches' and the writers' declarations: adding an approach
/// adds its class(es) and nothing here.
/// </summary>
public static class ApproachRegistry
{
    private static readonly List<(Type Type, ApproachInfo Info)> FoundWriters = FindWriters();

    /// <summary>The consumer of each fetch (SyncData.Shared/Fetches declares the fetches; each consumer names its own).</summary>
    public static IReadOnlyDictionary<FetchApproach, Type> Consumers { get; } = ApproachCatalog.FindHalves(typeof(ApproachRegistry).Assembly, typeof(IFetchConsumer<>));

    public static IReadOnlyDictionary<InsertApproach, Type> Writers { get; } =
        FoundWriters.ToDictionary(x => new InsertApproach(x.Info.Name), x => x.Type);

    /// <summary>Every name and what each needs; served at GET /approaches.</summary>
    public static ApproachCatalog Catalog { get; } = new(ApproachCatalog.DeclaredFetches.Concat(FoundWriters.Select(x => x.Info)));

    /// <summary>Neither consumers nor writers hold state: a run hands its consumer the run (ConsumerRun).</summary>
    public static IServiceCollection AddApproaches(this IServiceCollection services)
    {
        foreach (var (name, type) in Consumers)
        {
            services.AddKeyedSingleton(typeof(IFetchConsumer), name, type);
        }

        foreach (var (name, type) in Writers)
        {
            services.AddKeyedSingleton(typeof(ITableWriter), name, type);
        }

        return services;
    }

    /// <summary>GET /approaches: the catalogue as SomeService built it, for people and scripts.</summary>
    public static IEndpointRouteBuilder MapApproaches(this IEndpointRouteBuilder app)
    {
        app.MapGet("/approaches", () => TypedResults.Ok(Catalog.All.ToList()));
        return app;
    }

    /// <summary>The writers as they declare themselves; a writer class that declares nothing would never run, so it is refused.</summary>
    private static List<(Type Type, ApproachInfo Info)> FindWriters()
    {
        var found = ApproachCatalog.Declared(typeof(ApproachRegistry).Assembly, ApproachKind.Insert);
        var undeclared = typeof(ApproachRegistry).Assembly.GetTypes()
            .FirstOrDefault(t => t is { IsClass: true, IsAbstract: false } && typeof(ITableWriter).IsAssignableFrom(t) && found.All(f => f.Type != t));
        return undeclared is null
            ? found
            : throw new InvalidOperationException($"{undeclared.Name} implements {nameof(ITableWriter)} but declares no [Approach(ApproachKind.Insert, …)].");
    }
}
