using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>A runnable fetch × insert combination; its number names its picture and never depends on --cases.</summary>
public sealed record Combination(int Number, FetchApproach Fetch, InsertApproach Insert)
{
    public string Key => $"{Fetch}:{Insert}";
    public string Picture => $"{Number}.png";
}

public static class Catalog
{
    /// <summary>The approaches of the SomeService built beside the runner, read from its metadata.</summary>
    public static ApproachCatalog Approaches => ApproachMetadata.Catalog;

    /// <summary>
    /// The original write-up's ten measured cases in the order of its TestCase numbers (1..10), so our table and its
    /// table can be read side by side; then the cases this lab added, 11..21, as first published (results of
    /// 2026-11-22), and 22..25 (Linq2DBCopy, first published 2026-11-23). Names as data: a case's number, and its picture's file name, never move when approaches are added.
    /// </summary>
    public static IReadOnlyList<(string Fetch, string Insert)> Published { get; } =
    [
        ("EFOffsetPaging", "EFTypical"),
        ("EFKeysetPaging", "EFTypical"),
        ("EFOffsetPaging", "EFBulk"),
        ("EFKeysetPaging", "EFBulk"),
        ("EFStream", "EFBulk"),
        ("EFStream", "Linq2DB"),
        ("NpgsqlCopy", "EFBulk"),
        ("NpgsqlCopy", "Linq2DB"),
        ("NpgsqlCopy", "NpgsqlCopy"),
        ("EFKeysetPaging", "NpgsqlCopy"),
        ("EFStream", "EFTypical"),
        ("NpgsqlCopy", "EFTypical"),
        ("EFOffsetPaging", "Linq2DB"),
        ("EFKeysetPaging", "Linq2DB"),
        ("EFOffsetPaging", "NpgsqlCopy"),
        ("EFStream", "NpgsqlCopy"),
        ("NpgsqlCopy", "NpgsqlCopyRaw"),
        ("EFOffsetPaging", "NpgsqlCopyTuned"),
        ("EFKeysetPaging", "NpgsqlCopyTuned"),
        ("EFStream", "NpgsqlCopyTuned"),
        ("NpgsqlCopy", "NpgsqlCopyTuned"),
        ("EFKeysetPaging", "Linq2DBCopy"),
        ("EFOffsetPaging", "Linq2DBCopy"),
        ("EFStream", "Linq2DBCopy"),
        ("NpgsqlCopy", "Linq2DBCopy"),
    ];

    /// <summary>How many of <see cref="Published"/> are the original's (numbered 1..10).</summary>
    public const int OriginalCount = 10;

    /// <summary>The TestCase number of every compatible combination.</summary>
    public static IReadOnlyDictionary<(FetchApproach Fetch, InsertApproach Insert), int> Numbers => NumbersOnce.Value;

    private static readonly Lazy<Dictionary<(FetchApproach Fetch, InsertApproach Insert), int>> NumbersOnce =
        new(() => Number(Approaches, Approaches.Fetches, Approaches.Inserts));

    /// <summary>
    /// Published pairs keep their numbers; every other compatible combination follows, insert by insert, then fetch by
    /// fetch, in the catalogue's (ordinal) order. Add a new approach's pairs to <see cref="Published"/> when their
    /// numbers are first published, so a later approach whose name sorts earlier cannot renumber them.
    /// </summary>
    public static Dictionary<(FetchApproach Fetch, InsertApproach Insert), int> Number(ApproachCatalog approaches, IEnumerable<FetchApproach> fetches, IEnumerable<InsertApproach> inserts)
    {
        var numbers = Published.Select((c, i) => (c, i)).ToDictionary(x => (new FetchApproach(x.c.Fetch), new InsertApproach(x.c.Insert)), x => x.i + 1);
        var next = Published.Count + 1;
        foreach (var insert in inserts)
        {
            foreach (var fetch in fetches)
            {
                if (approaches.Incompatibility(fetch, insert) is null && !numbers.ContainsKey((fetch, insert)))
                {
                    numbers[(fetch, insert)] = next++;
                }
            }
        }

        return numbers;
    }

    /// <summary>The catalogue's runnable combinations, by number.</summary>
    public static IReadOnlyList<Combination> Runnable =>
        Approaches.RunnableCombinations.Select(c => new Combination(Numbers[c], c.Fetch, c.Insert)).OrderBy(c => c.Number).ToArray();
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
                if (!Catalog.Approaches.TryParseFetch(parts[0], out var f))
                {
                    error = $"'{parts[0]}' in '{item}' is not a fetch approach. Valid values: {Catalog.Approaches.FetchNames}, *.";
                    return All;
                }

                fetch = f;
            }

            if (parts[1] != "*")
            {
                if (!Catalog.Approaches.TryParseInsert(parts[1], out var i))
                {
                    error = $"'{parts[1]}' in '{item}' is not an insert approach. Valid values: {Catalog.Approaches.InsertNames}, *.";
                    return All;
                }

                insert = i;
            }

            // Naming one exact pair that can never run is a mistake worth stopping for; a wildcard just skips it.
            if (fetch is { } ef && insert is { } ei && Catalog.Approaches.Incompatibility(ef, ei) is { } why)
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
        if (!Catalog.Runnable.Any(c => selection.Matches(c.Fetch, c.Insert)))
        {
            error = $"--cases {string.Join(',', text)} selects no combination.";
        }

        return selection;
    }
}
