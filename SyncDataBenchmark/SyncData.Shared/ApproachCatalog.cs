namespace SyncData.Shared;

/// <summary>
/// Every approach name and what each needs, built from the declaring classes: SomeService builds it by reflection
/// (ApproachRegistry), the runner from SomeService.dll's metadata; a fast test holds the two equal. Names are sorted
/// ordinally so the order never depends on how a compiler lays out types.
/// </summary>
public sealed class ApproachCatalog
{
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
