using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

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

    /// <summary>--profile-cases when not given (BenchSettings.DefaultProfileCasesText).</summary>
    public static CaseSelection DefaultProfileCases { get; } = Parse([BenchSettings.DefaultProfileCasesText], out _);

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
            if (ParsePattern(item, out error) is not { } pattern)
            {
                return All;
            }

            patterns.Add(pattern);
            text.Add($"{pattern.Fetch?.ToString() ?? "*"}:{pattern.Insert?.ToString() ?? "*"}");
        }

        if (patterns.Count == 0)
        {
            return All;
        }

        var selection = new CaseSelection(patterns, text);
        if (!CaseNumbers.Runnable.Any(c => selection.Matches(c.Fetch, c.Insert)))
        {
            error = $"--cases {string.Join(',', text)} selects no combination.";
        }

        return selection;
    }

    /// <summary>One "Fetch:Insert" pattern (null sides are "*"), or null and why not.</summary>
    private static (FetchApproach? Fetch, InsertApproach? Insert)? ParsePattern(string item, out string? error)
    {
        error = null;
        var parts = item.Split(':');
        if (parts.Length != 2)
        {
            error = $"'{item}' is not a case: use Fetch:Insert, either side may be '*' (e.g. NpgsqlCopy:* or EFStream:NpgsqlCopy).";
            return null;
        }

        FetchApproach? fetch = null;
        InsertApproach? insert = null;
        if (parts[0] != "*")
        {
            if (!CaseNumbers.Approaches.TryParseFetch(parts[0], out var f))
            {
                error = $"'{parts[0]}' in '{item}' is not a fetch approach. Valid values: {CaseNumbers.Approaches.FetchNames}, *.";
                return null;
            }

            fetch = f;
        }

        if (parts[1] != "*")
        {
            if (!CaseNumbers.Approaches.TryParseInsert(parts[1], out var i))
            {
                error = $"'{parts[1]}' in '{item}' is not an insert approach. Valid values: {CaseNumbers.Approaches.InsertNames}, *.";
                return null;
            }

            insert = i;
        }

        // Naming one exact pair that can never run is a mistake worth stopping for; a wildcard just skips it.
        if (fetch is { } ef && insert is { } ei && CaseNumbers.Approaches.Incompatibility(ef, ei) is { } why)
        {
            error = $"{ef}:{ei} cannot run: {why}";
            return null;
        }

        return (fetch, insert);
    }
}
