namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The library a writer is written with, read from its name's prefix (the lab names every writer after its library):
/// the crossover of --changed is stated per library, its merges against its own reloads.
/// </summary>
public static class WriterLibrary
{
    // Longest prefix first: EFBulk is not EF Core's own.
    private static readonly (string Prefix, string Library)[] Prefixes =
    [
        ("EFBulk", "EFCore.BulkExtensions"),
        ("EF", "EF Core"),
        ("Linq2DB", "linq2db"),
        ("NpgsqlCopy", "Npgsql COPY"),
    ];

    public static string Of(string insert) =>
        Prefixes.FirstOrDefault(p => insert.StartsWith(p.Prefix, StringComparison.Ordinal)).Library ?? insert;
}
