using System.Reflection;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Shared;

namespace SomeService;

/// <summary>
/// Finds every fetch consumer (<see cref="IFetchConsumer"/>) and writer (<see cref="IUserWriter"/>) in this assembly by
/// the name each declares with <see cref="ApproachAttribute"/>, registers it keyed by that name, and builds the
/// catalogue of names from the same classes: adding an approach adds its class and nothing here.
/// </summary>
public static class ApproachRegistry
{
    private static readonly List<(ApproachInfo Info, Type Type)> FoundConsumers = Find<IFetchConsumer>(ApproachKind.Fetch);
    private static readonly List<(ApproachInfo Info, Type Type)> FoundWriters = Find<IUserWriter>(ApproachKind.Insert);

    public static IReadOnlyDictionary<FetchApproach, Type> Consumers { get; } =
        FoundConsumers.ToDictionary(x => new FetchApproach(x.Info.Name), x => x.Type);

    public static IReadOnlyDictionary<InsertApproach, Type> Writers { get; } =
        FoundWriters.ToDictionary(x => new InsertApproach(x.Info.Name), x => x.Type);

    /// <summary>Every name and what each needs; served at GET /approaches.</summary>
    public static ApproachCatalog Catalog { get; } = new(FoundConsumers.Concat(FoundWriters).Select(x => x.Info));

    /// <summary>Consumers are transient (each run gets a fresh typed HttpClient); writers hold no state.</summary>
    public static IServiceCollection AddApproaches(this IServiceCollection services)
    {
        foreach (var (name, type) in Consumers)
        {
            services.AddKeyedTransient(typeof(IFetchConsumer), name, type);
        }

        foreach (var (name, type) in Writers)
        {
            services.AddKeyedSingleton(typeof(IUserWriter), name, type);
        }

        return services;
    }

    /// <summary>GET /approaches: the catalogue as SomeService built it, for people and scripts.</summary>
    public static IEndpointRouteBuilder MapApproaches(this IEndpointRouteBuilder app)
    {
        app.MapGet("/approaches", () => TypedResults.Ok(Catalog.All.Select(a => new ApproachDescription(
            a.Kind.ToString(), a.Name, a.CopyBytes, a.Pages, a.Batches, a.Kind == ApproachKind.Fetch ? a.Route : null)).ToList()));
        return app;
    }

    private static List<(ApproachInfo Info, Type Type)> Find<TInterface>(ApproachKind kind)
    {
        var found = Approach.Find(typeof(ApproachRegistry).Assembly, typeof(TInterface), kind);
        // A writer that consumes nothing could only pretend to write; one that consumes both would be ambiguous.
        if (kind == ApproachKind.Insert && found.FirstOrDefault(f => typeof(IRowWriter).IsAssignableFrom(f.Type) == typeof(ICopyBytesWriter).IsAssignableFrom(f.Type)) is { Type: { } both })
        {
            throw new InvalidOperationException($"{both.Name} must implement exactly one of {nameof(IRowWriter)} and {nameof(ICopyBytesWriter)}.");
        }

        return found.Select(f => (f.Info, f.Type)).ToList();
    }
}
