using System.Reflection;

namespace SyncData.Shared;

/// <summary>
/// Every approach name and what each needs, built from the declaring classes (<see cref="Declared"/>): SomeService reads
/// its loaded assembly (ApproachRegistry), the runner the same assembly in a MetadataLoadContext, by the same code; a
/// fast test holds the two equal. Names are sorted ordinally so the order never depends on how a compiler lays out types.
/// </summary>
public sealed class ApproachCatalog
{
    /// <summary>Every fetch declared in SyncData.Shared/Fetches: the one list of fetches both services and the runner read.</summary>
    public static IReadOnlyList<ApproachInfo> DeclaredFetches { get; } = [.. Declared(typeof(IFetch).Assembly, ApproachKind.Fetch).Select(f => f.Info)];

    private readonly Dictionary<string, ApproachInfo> _fetches;
    private readonly Dictionary<string, ApproachInfo> _inserts;

    public ApproachCatalog(IEnumerable<ApproachInfo> approaches)
    {
        var all = approaches.ToList();
        _fetches = Index(all, ApproachKind.Fetch);
        _inserts = Index(all, ApproachKind.Insert);
        All = [.. all.OrderBy(a => a.Kind).ThenBy(a => a.Name, StringComparer.Ordinal)];
        Fetches = [.. _fetches.Keys.Order(StringComparer.Ordinal).Select(n => new FetchApproach(n))];
        Inserts = [.. _inserts.Keys.Order(StringComparer.Ordinal).Select(n => new InsertApproach(n))];
    }

    public IReadOnlyList<ApproachInfo> All { get; }

    public IReadOnlyList<FetchApproach> Fetches { get; }

    public IReadOnlyList<InsertApproach> Inserts { get; }

    public ApproachInfo this[FetchApproach fetch] => _fetches[fetch.Name];

    public ApproachInfo this[InsertApproach insert] => _inserts[insert.Name];

    /// <summary>Why a combination cannot run, or null when it can.</summary>
    public string? Incompatibility(FetchApproach fetch, InsertApproach insert) =>
        this[insert].CopyBytes && !this[fetch].CopyBytes
            ? $"{insert} relays the source's binary COPY bytes unparsed, so it needs {Names("f=", _fetches, f => f.CopyBytes)}; {fetch} delivers JSON."
            : this[fetch].Changes && !this[insert].Merges
                ? $"{fetch} delivers only the changes since the last sync, and {insert} empties the target and loads every row: it needs {Names("i=", _inserts, i => i.Merges)}."
                : null;

    private static string Names(string parameter, Dictionary<string, ApproachInfo> approaches, Func<ApproachInfo, bool> which) =>
        string.Join(" or ", approaches.Values.Where(which).Select(a => parameter + a.Name).Order(StringComparer.Ordinal));

    /// <summary>Every combination that can run, in a stable order.</summary>
    public IEnumerable<(FetchApproach Fetch, InsertApproach Insert)> RunnableCombinations =>
        from f in Fetches
        from i in Inserts
        where Incompatibility(f, i) is null
        select (f, i);

    /// <summary>Exact names only, case-insensitive; the result carries the name as declared.</summary>
    public bool TryParseFetch(string? value, out FetchApproach fetch)
    {
        var found = Find(_fetches, value);
        fetch = new FetchApproach(found ?? "");
        return found is not null;
    }

    public bool TryParseInsert(string? value, out InsertApproach insert)
    {
        var found = Find(_inserts, value);
        insert = new InsertApproach(found ?? "");
        return found is not null;
    }

    public string FetchNames => string.Join(", ", Fetches);

    public string InsertNames => string.Join(", ", Inserts);

    // The dictionaries are case-insensitive already: a lookup, not a scan; the stored info carries the declared spelling.
    private static string? Find(Dictionary<string, ApproachInfo> names, string? value) =>
        !string.IsNullOrWhiteSpace(value) && names.TryGetValue(value, out var found) ? found.Name : null;

    /// <summary>
    /// Every concrete class in <paramref name="assembly"/> that declares an approach of <paramref name="kind"/>, with what
    /// it declares (<see cref="ApproachInfo.Declared"/>): the one scan both services and the runner find approaches by.
    /// No two may share a name (names compare ignoring case, as the query does).
    /// </summary>
    public static List<(Type Type, ApproachInfo Info)> Declared(Assembly assembly, ApproachKind kind)
    {
        var found = new List<(Type Type, ApproachInfo Info)>();
        // The declaration first: in a MetadataLoadContext, asking whether any type is a class resolves its base type,
        // which for the service's framework types is not among the assemblies the runner points it at.
        foreach (var type in assembly.GetTypes())
        {
            if (ApproachInfo.Declared(type) is not { } info || info.Kind != kind || type is not { IsClass: true, IsAbstract: false })
            {
                continue;
            }

            if (found.FirstOrDefault(f => string.Equals(f.Info.Name, info.Name, StringComparison.OrdinalIgnoreCase)) is { Type: { } other })
            {
                throw new InvalidOperationException($"{other.Name} and {type.Name} both declare the name {info.Name}.");
            }

            found.Add((type, info));
        }

        return found;
    }

    /// <summary>
    /// Every concrete class in <paramref name="assembly"/> that is one half of a fetch (implements
    /// <paramref name="openHalf"/> of the fetch's class), by the fetch it names: exactly one per declared fetch.
    /// </summary>
    public static Dictionary<FetchApproach, Type> FindHalves(Assembly assembly, Type openHalf)
    {
        var halves = new Dictionary<FetchApproach, Type>();
        foreach (var type in assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false }))
        {
            if (type.GetInterfaces().SingleOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == openHalf) is not { } half)
            {
                continue;
            }

            var fetch = new FetchApproach(ApproachInfo.Of(half.GetGenericArguments()[0]).Name);
            if (!halves.TryAdd(fetch, type))
            {
                throw new InvalidOperationException($"{halves[fetch].Name} and {type.Name} are both halves of {fetch} in {assembly.GetName().Name}.");
            }
        }

        return DeclaredFetches.FirstOrDefault(f => !halves.ContainsKey(new FetchApproach(f.Name))) is { } alone
            ? throw new InvalidOperationException($"The fetch {alone.Name} has no half in {assembly.GetName().Name}.")
            : halves;
    }

    private static Dictionary<string, ApproachInfo> Index(List<ApproachInfo> all, ApproachKind kind)
    {
        var found = new Dictionary<string, ApproachInfo>(StringComparer.OrdinalIgnoreCase);
        foreach (var approach in all.Where(a => a.Kind == kind))
        {
            if (!found.TryAdd(approach.Name, approach))
            {
                // Names are matched case-insensitively in requests, so two that differ only in case would be ambiguous.
                throw new InvalidOperationException($"Two {kind.ToString().ToLowerInvariant()} approaches are named {approach.Name}.");
            }
        }

        return found;
    }
}
