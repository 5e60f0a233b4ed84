using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>The TestCase numbers: which combination is which number, published ones first, and the runnable ones.</summary>
public static class CaseNumbers
{
    /// <summary>The approaches of the SomeService built beside the runner, read from its metadata.</summary>
    public static ApproachCatalog Approaches => ApproachMetadata.Catalog;

    /// <summary>
    /// The original write-up's ten measured cases in the order of its TestCase numbers (1..10), so our table and its
    /// table can be read side by side; then the cases this lab added, 11..21, as first published (results of
    /// 2026-11-22), and 22..25 (Linq2DBCopy, first published 2026-11-23), and 26 (NpgsqlCopyRawTuned, first published 2026-11-24), and 27..40 (the ArrowStream and GrpcStream fetches, first published 2026-11-25, in the order the enumeration gave them). Names as data: a case's number, and its picture's file name, never move when approaches are added.
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
        ("NpgsqlCopy", "NpgsqlCopyRawTuned"),
        ("ArrowStream", "EFBulk"),
        ("GrpcStream", "EFBulk"),
        ("ArrowStream", "EFTypical"),
        ("GrpcStream", "EFTypical"),
        ("ArrowStream", "Linq2DB"),
        ("GrpcStream", "Linq2DB"),
        ("ArrowStream", "Linq2DBCopy"),
        ("GrpcStream", "Linq2DBCopy"),
        ("ArrowStream", "NpgsqlCopy"),
        ("GrpcStream", "NpgsqlCopy"),
        ("ArrowStream", "NpgsqlCopyRaw"),
        ("ArrowStream", "NpgsqlCopyRawTuned"),
        ("ArrowStream", "NpgsqlCopyTuned"),
        ("GrpcStream", "NpgsqlCopyTuned"),
    ];

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
        Approaches.RunnableCombinations.Select(c => new Combination(Numbers[c], c.Fetch, c.Insert) { Merges = Approaches[c.Insert].Merges }).OrderBy(c => c.Number).ToArray();
}
