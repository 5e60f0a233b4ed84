namespace SyncData.Shared;

/// <summary>Which half of a transfer an approach is.</summary>
public enum ApproachKind
{
    Fetch,
    Insert,
}

/// <summary>
/// The name a fetch consumer, a fetch's server endpoint or a writer answers to, and what it needs. Each side finds the
/// classes that carry it by enumeration (SomeService: ApproachRegistry; SyncDataSource: FetchEndpoints; the runner:
/// ApproachMetadata, which reads SomeService.dll's metadata without loading it), so adding an approach is adding its
/// class: nothing else names it. Only constant arguments, so the runner can decode them from metadata alone.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class ApproachAttribute(ApproachKind kind, string name) : Attribute
{
    public ApproachKind Kind { get; } = kind;

    public string Name { get; } = name;

    /// <summary>
    /// Fetch: its wire format is PostgreSQL binary COPY, so the bytes can be relayed unparsed. Insert: it consumes
    /// those bytes instead of rows, so it runs only with a fetch that delivers them.
    /// </summary>
    public bool CopyBytes { get; set; }

    /// <summary>Fetch: the page size means something to it (recorded in the run only if so).</summary>
    public bool Pages { get; set; }

    /// <summary>Insert: the batch size means something to it (recorded in the run only if so).</summary>
    public bool Batches { get; set; }

    /// <summary>
    /// Fetch: SyncDataSource's path for it, declared the same on both halves; when omitted both derive
    /// <see cref="SourceRoutes.Of"/>(name), so a new fetch adds no route constant anywhere.
    /// </summary>
    public string? Route { get; set; }

    public ApproachInfo ToInfo() => new(Kind, Name, CopyBytes, Pages, Batches, Route ?? SourceRoutes.Of(Name));
}

/// <summary>Reading the declaration back from a class (a consumer or an endpoint asking for its own route).</summary>
public static class Approach
{
    public static ApproachInfo Of(Type type) =>
        Declared(type) ?? throw new InvalidOperationException($"{type.Name} declares no [Approach(…)].");

    /// <summary>
    /// Every concrete class in <paramref name="assembly"/> that implements <paramref name="contract"/>, with what it
    /// declares: the one scan both services find their approaches by. Each must declare an approach of
    /// <paramref name="kind"/>, and no two the same name (names compare ignoring case, as the query does).
    /// </summary>
    public static List<(Type Type, ApproachInfo Info)> Find(System.Reflection.Assembly assembly, Type contract, ApproachKind kind)
    {
        var found = new List<(Type Type, ApproachInfo Info)>();
        foreach (var type in assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && contract.IsAssignableFrom(t)))
        {
            var info = Declared(type) is { } declared && declared.Kind == kind
                ? declared
                : throw new InvalidOperationException($"{type.Name} implements {contract.Name} but declares no [Approach(ApproachKind.{kind}, …)].");
            if (found.FirstOrDefault(f => string.Equals(f.Info.Name, info.Name, StringComparison.OrdinalIgnoreCase)) is { Type: { } other })
            {
                throw new InvalidOperationException($"{other.Name} and {type.Name} both declare the name {info.Name}.");
            }

            found.Add((type, info));
        }

        return found;
    }

    private static ApproachInfo? Declared(Type type) =>
        (type.GetCustomAttributes(typeof(ApproachAttribute), inherit: false).SingleOrDefault() as ApproachAttribute)?.ToInfo();
}
