namespace SyncData.Shared;

/// <summary>How SomeService pulls rows out of SyncDataSource.</summary>
public enum FetchApproach
{
    EFOffsetPaging,
    EFKeysetPaging,
    EFStream,
    NpgsqlCopy,
}

/// <summary>How SomeService writes the pulled rows into its own database.</summary>
public enum InsertApproach
{
    EFTypical,
    EFBulk,
    Linq2DB,
    NpgsqlCopy,
    /// <summary>Relays the source's binary COPY bytes into COPY FROM STDIN without parsing; needs fetch NpgsqlCopy.</summary>
    NpgsqlCopyRaw,
    /// <summary>NpgsqlCopy plus the manual's bulk-load advice in the run's transaction: primary key dropped, COPY FREEZE, key re-added.</summary>
    NpgsqlCopyTuned,
}

/// <summary>The one place that knows the approach names; endpoints, runner, tests and docs enumerate these.</summary>
public static class Approaches
{
    public static IReadOnlyList<FetchApproach> Fetches { get; } = Enum.GetValues<FetchApproach>();

    public static IReadOnlyList<InsertApproach> Inserts { get; } = Enum.GetValues<InsertApproach>();

    /// <summary>
    /// Insert approaches whose library is not restorable from the package registry this lab is built against.
    /// They keep their names (so requests and docs stay honest) and answer 501 with this reason.
    /// </summary>
    public static IReadOnlyDictionary<InsertApproach, string> Unavailable { get; } = new Dictionary<InsertApproach, string>
    {
        [InsertApproach.Linq2DB] = "linq2db cannot be restored here: the registry copy has no linq2db package at all.",
    };

    public static IEnumerable<InsertApproach> AvailableInserts => Inserts.Where(i => !Unavailable.ContainsKey(i));

    /// <summary>Why a combination cannot run, or null when it can.</summary>
    public static string? Incompatibility(FetchApproach fetch, InsertApproach insert) =>
        insert == InsertApproach.NpgsqlCopyRaw && fetch != FetchApproach.NpgsqlCopy
            ? $"{InsertApproach.NpgsqlCopyRaw} relays the source's binary COPY bytes unparsed, so it needs f={FetchApproach.NpgsqlCopy}; {fetch} delivers JSON."
            : null;

    /// <summary>Every combination that can run in this build, in a stable order.</summary>
    public static IEnumerable<(FetchApproach Fetch, InsertApproach Insert)> RunnableCombinations =>
        from f in Fetches
        from i in AvailableInserts
        where Incompatibility(f, i) is null
        select (f, i);

    public static bool TryParse<T>(string? value, out T result) where T : struct, Enum
    {
        result = default;
        // Enum.TryParse also accepts numbers and comma lists; only exact names count here.
        return !string.IsNullOrWhiteSpace(value)
               && Enum.GetNames<T>().Any(n => string.Equals(n, value, StringComparison.OrdinalIgnoreCase))
               && Enum.TryParse(value, ignoreCase: true, out result);
    }

    public static string Names<T>() where T : struct, Enum => string.Join(", ", Enum.GetNames<T>());
}
