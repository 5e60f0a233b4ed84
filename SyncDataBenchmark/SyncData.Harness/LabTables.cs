using SyncData.Postgres;

namespace SyncData.Harness;

/// <summary>
/// The lab's tables defined by their folder alone (Tables/&lt;name&gt;/ holding schema.sql, generate.sql, seed.sql and
/// sentinel.sql): created in both databases with the lab's schema, seeded by their generator, and moved as the lab moves
/// any table it has no classes for, described from each database's catalog. Adding such a table is adding its folder.
/// users and orders predate them: sql/schema.sql and the lab's written classes hold theirs.
/// </summary>
public static class LabTables
{
    private const string Prefix = "Tables/";

    /// <summary>Every folder with a schema.sql, by name.</summary>
    public static IReadOnlyList<string> Names { get; } = typeof(LabTables).Assembly.GetManifestResourceNames()
        .Where(n => n.StartsWith(Prefix, StringComparison.Ordinal) && n.EndsWith("/schema.sql", StringComparison.Ordinal))
        .Select(n => n[Prefix.Length..n.LastIndexOf('/')])
        .Order(StringComparer.Ordinal)
        .ToList();

    /// <summary>The folder table <paramref name="name"/> names, in any letter case, to be described once the lab has made it; or null.</summary>
    public static SyncTable? Find(string? name) =>
        Names.FirstOrDefault(n => string.Equals(n, name, StringComparison.OrdinalIgnoreCase)) is { } found ? SyncTable.ToDescribe(found) : null;

    /// <summary>Every folder table's schema.sql (both databases).</summary>
    public static string Schema => string.Join("\n", Names.Select(n => SqlScripts.Read($"{Prefix}{n}/schema.sql")));

    /// <summary>Every folder table's generate.sql (the source only, beside sql/generate.sql).</summary>
    public static string Generator => string.Join("\n", Names.Select(n => SqlScripts.Read($"{Prefix}{n}/generate.sql")));
}
