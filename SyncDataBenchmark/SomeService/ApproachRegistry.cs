using System.Reflection;
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
    private static readonly List<(ApproachInfo Info, Type Type)> FoundWriters = FindWriters();

    /// <summary>The consumer of each fetch (SyncData.Shared/Fetches declares the fetches; each consumer names its own).</summary>
    public static IReadOnlyDictionary<FetchApproach, Type> Consumers { get; } = Approach.FindHalves(typeof(ApproachRegistry).Assembly, typeof(IFetchConsumer<>));

    public static IReadOnlyDictionary<InsertApproach, Type> Writers { get; } =
        FoundWriters.ToDictionary(x => new InsertApproach(x.Info.Name), x => x.Type);

    /// <summary>Every name and what each needs; served at GET /approaches.</summary>
    public static ApproachCatalog Catalog { get; } = new(Approach.Fetches.Concat(FoundWriters.Select(x => x.Info)));

    /// <summary>Neither consumers nor writers hold state: a run hands its consumer the run (SourceRun).</summary>
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
        app.MapGet("/approaches", () => TypedResults.Ok(Catalog.All.Select(a => new ApproachDescription(
            a.Kind.ToString(), a.Name, a.CopyBytes, a.Pages, a.Batches, a.Kind == ApproachKind.Fetch ? a.Route : null)).ToList()));
        return app;
    }

    private static List<(ApproachInfo Info, Type Type)> FindWriters()
    {
        var found = Approach.Find(typeof(ApproachRegistry).Assembly, typeof(ITableWriter), ApproachKind.Insert);
        // A writer that consumes nothing could only pretend to write; one that consumes both would be ambiguous.
        if (found.FirstOrDefault(f => typeof(IRowWriter).IsAssignableFrom(f.Type) == typeof(ICopyBytesWriter).IsAssignableFrom(f.Type)) is { Type: { } both })
        {
            throw new InvalidOperationException($"{both.Name} must implement exactly one of {nameof(IRowWriter)} and {nameof(ICopyBytesWriter)}.");
        }

        return found.Select(f => (f.Info, f.Type)).ToList();
    }
}
