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
    /// <summary>What a writer consumes; each writer implements exactly one of them (declared before the writers are found).</summary>
    public static readonly IReadOnlyList<Type> WriterKinds = [typeof(IRowWriter), typeof(ICopyBytesWriter), typeof(IMergeWriter), typeof(ICopyBytesMergeWriter)];

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

    /// <summary>The kinds that merge into a populated target, which their writers declare with Merges = true.</summary>
    public static bool IsMergeKind(Type writerKind) => writerKind == typeof(IMergeWriter) || writerKind == typeof(ICopyBytesMergeWriter);

    private static List<(ApproachInfo Info, Type Type)> FindWriters()
    {
        var found = Approach.Find(typeof(ApproachRegistry).Assembly, typeof(ITableWriter), ApproachKind.Insert);
        if (found.Select(f => WriterProblem(f.Type, f.Info)).FirstOrDefault(p => p is not null) is { } problem)
        {
            throw new InvalidOperationException(problem);
        }

        return found.Select(f => (f.Info, f.Type)).ToList();
    }

    /// <summary>Why a writer class cannot be registered as it declares itself, or null when it can.</summary>
    internal static string? WriterProblem(Type type, ApproachInfo declared)
    {
        // A writer that consumes nothing could only pretend to write; one that consumes two ways would be ambiguous.
        var kinds = WriterKinds.Where(k => k.IsAssignableFrom(type)).ToList();
        if (kinds.Count != 1)
        {
            return $"{type.Name} must implement exactly one of {string.Join(", ", WriterKinds.Select(k => k.Name))}.";
        }

        // The catalogue (and the runner, which reads it from metadata) decides what may run by Merges: it must say what
        // the writer does, or a change fetch would reach a writer that empties the target.
        return declared.Merges != IsMergeKind(kinds[0])
            ? $"{type.Name} implements {kinds[0].Name} but declares Merges = {declared.Merges}."
            : null;
    }
}
