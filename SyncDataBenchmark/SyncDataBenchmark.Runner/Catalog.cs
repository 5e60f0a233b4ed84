using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>A runnable fetch × insert combination; its number names its picture and never depends on --cases.</summary>
public sealed record Combination(int Number, FetchApproach Fetch, InsertApproach Insert)
{
    public string Key => $"{Fetch}:{Insert}";
    public string Picture => $"{Number}.png";
}

/// <summary>A combination whose insert library cannot be restored here: reported with its reason and number, never run.</summary>
public sealed record BlockedCombination(int Number, FetchApproach Fetch, InsertApproach Insert, string Reason)
{
    public string Key => $"{Fetch}:{Insert}";
}

public static class Catalog
{
    /// <summary>
    /// The original write-up's ten measured cases in the order of its TestCase numbers (1..10), so our table and its
    /// table can be read side by side.
    /// </summary>
    public static IReadOnlyList<(FetchApproach Fetch, InsertApproach Insert)> Original { get; } =
    [
        (FetchApproach.EFOffsetPaging, InsertApproach.EFTypical),
        (FetchApproach.EFKeysetPaging, InsertApproach.EFTypical),
        (FetchApproach.EFOffsetPaging, InsertApproach.EFBulk),
        (FetchApproach.EFKeysetPaging, InsertApproach.EFBulk),
        (FetchApproach.EFStream, InsertApproach.EFBulk),
        (FetchApproach.EFStream, InsertApproach.Linq2DB),
        (FetchApproach.NpgsqlCopy, InsertApproach.EFBulk),
        (FetchApproach.NpgsqlCopy, InsertApproach.Linq2DB),
        (FetchApproach.NpgsqlCopy, InsertApproach.NpgsqlCopy),
        (FetchApproach.EFKeysetPaging, InsertApproach.NpgsqlCopy),
    ];

    /// <summary>The TestCase number of every compatible combination, runnable or blocked.</summary>
    public static IReadOnlyDictionary<(FetchApproach Fetch, InsertApproach Insert), int> Numbers { get; } =
        Number(Approaches.Fetches, Approaches.Inserts);

    /// <summary>
    /// The original's ten keep its numbers; every other compatible combination follows from 11, insert by insert in
    /// enum order, then fetch by fetch: an insert approach added at the end of <see cref="InsertApproach"/> only adds
    /// numbers after the existing ones, it never renumbers a case (or its picture).
    /// </summary>
    public static Dictionary<(FetchApproach Fetch, InsertApproach Insert), int> Number(IEnumerable<FetchApproach> fetches, IEnumerable<InsertApproach> inserts)
    {
        var numbers = Original.Select((c, i) => (c, i)).ToDictionary(x => x.c, x => x.i + 1);
        var next = Original.Count + 1;
        foreach (var insert in inserts)
        {
            foreach (var fetch in fetches)
            {
                if (Approaches.Incompatibility(fetch, insert) is null && !numbers.ContainsKey((fetch, insert)))
                {
                    numbers[(fetch, insert)] = next++;
                }
            }
        }

        return numbers;
    }

    /// <summary>Approaches.RunnableCombinations, by number.</summary>
    public static IReadOnlyList<Combination> Runnable { get; } =
        Approaches.RunnableCombinations.Select(c => new Combination(Numbers[c], c.Fetch, c.Insert)).OrderBy(c => c.Number).ToArray();

    /// <summary>Every compatible fetch × unavailable insert pair, by number.</summary>
    public static IReadOnlyList<BlockedCombination> Blocked { get; } =
        (from f in Approaches.Fetches
         from i in Approaches.Inserts
         where Approaches.Unavailable.ContainsKey(i) && Approaches.Incompatibility(f, i) is null
         orderby Numbers[(f, i)]
         select new BlockedCombination(Numbers[(f, i)], f, i, Approaches.Unavailable[i])).ToArray();
}

/// <summary>
/// --cases: "Fetch:Insert" patterns, either side may be "*"; several separated by commas or given repeatedly.
/// Names are case-insensitive and must exist, so a typo is an error rather than an empty matrix.
/// </summary>
public sealed class CaseSelection
{
    private readonly List<(FetchApproach? Fetch, InsertApproach? Insert)> _patterns;

    private CaseSelection(List<(FetchApproach?, InsertApproach?)> patterns, IReadOnlyList<string> text)
    {
        _patterns = patterns;
        Patterns = text;
    }

    public static CaseSelection All { get; } = new([(null, null)], ["*:*"]);

    /// <summary>BenchSettings.DefaultProfileCasesText, keeping only the pairs this build knows.</summary>
    public static CaseSelection DefaultProfileCases { get; } = ParseTolerant(BenchSettings.DefaultProfileCasesText);

    /// <summary>Like <see cref="Parse"/>, but a pattern naming an approach this build lacks is dropped.</summary>
    public static CaseSelection ParseTolerant(string text)
    {
        var known = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(item => { Parse([item], out var error); return error is null; })
            .ToList();
        return known.Count == 0 ? new CaseSelection([], []) : Parse(known, out _);
    }

    /// <summary>The patterns as given (normalised), for the report.</summary>
    public IReadOnlyList<string> Patterns { get; }

    public bool Matches(FetchApproach fetch, InsertApproach insert) =>
        _patterns.Any(p => (p.Fetch is null || p.Fetch == fetch) && (p.Insert is null || p.Insert == insert));

    public static CaseSelection Parse(IEnumerable<string> values, out string? error)
    {
        error = null;
        var patterns = new List<(FetchApproach?, InsertApproach?)>();
        var text = new List<string>();
        foreach (var item in values.SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)))
        {
            var parts = item.Split(':');
            if (parts.Length != 2)
            {
                error = $"'{item}' is not a case: use Fetch:Insert, either side may be '*' (e.g. NpgsqlCopy:* or EFStream:NpgsqlCopy).";
                return All;
            }

            FetchApproach? fetch = null;
            InsertApproach? insert = null;
            if (parts[0] != "*")
            {
                if (!Approaches.TryParse<FetchApproach>(parts[0], out var f))
                {
                    error = $"'{parts[0]}' in '{item}' is not a fetch approach. Valid values: {Approaches.Names<FetchApproach>()}, *.";
                    return All;
                }

                fetch = f;
            }

            if (parts[1] != "*")
            {
                if (!Approaches.TryParse<InsertApproach>(parts[1], out var i))
                {
                    error = $"'{parts[1]}' in '{item}' is not an insert approach. Valid values: {Approaches.Names<InsertApproach>()}, *.";
                    return All;
                }

                insert = i;
            }

            // Naming one exact pair that can never run is a mistake worth stopping for; a wildcard just skips it.
            if (fetch is { } ef && insert is { } ei && Approaches.Incompatibility(ef, ei) is { } why)
            {
                error = $"{ef}:{ei} cannot run: {why}";
                return All;
            }

            patterns.Add((fetch, insert));
            text.Add($"{fetch?.ToString() ?? "*"}:{insert?.ToString() ?? "*"}");
        }

        if (patterns.Count == 0)
        {
            return All;
        }

        var selection = new CaseSelection(patterns, text);
        if (!Catalog.Runnable.Any(c => selection.Matches(c.Fetch, c.Insert)) && !Catalog.Blocked.Any(b => selection.Matches(b.Fetch, b.Insert)))
        {
            error = $"--cases {string.Join(',', text)} selects no combination.";
        }

        return selection;
    }
}
