using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SyncData.Postgres.Catalog;

/// <summary>
/// Which approaches can carry a table the lab has no classes for, only a catalog's description: the one rule SomeService
/// refuses a run by and the runner names the rest by before any run (docs/own-table.md). What needs no row type
/// carries it: the source's binary COPY relayed as bytes (NpgsqlCopy) into a writer of COPY bytes, a reload or, given a
/// primary key, a merge. Everything else builds each row as an object of a class written per table, which a described table does not have yet.
/// </summary>
public static class DescribedTableReach
{
    /// <summary>The one fetch whose source half relays COPY bytes without a row type.</summary>
    public static string CarryingFetch { get; } = ApproachInfo.Of(typeof(NpgsqlCopyFetch)).Name;

    /// <summary>Why <paramref name="fetch"/> × <paramref name="insert"/> cannot carry <paramref name="table"/>, or null when it can.</summary>
    public static string? WhyNot(ApproachInfo fetch, ApproachInfo insert, TableDescription table)
    {
        if (fetch.Name != CarryingFetch)
        {
            return fetch.Changes
                ? $"{fetch.Name} reads the change log (triggers and a table on the source), which a user's database does not get"
                : $"{fetch.Name} builds each row as a typed object (EF Core entity, gRPC message or Arrow schema) of a class written per table; " +
                  "none is generated for a described table yet (issue 49, part 3)";
        }

        if (!insert.CopyBytes)
        {
            return $"{insert.Name} writes typed rows (EF Core, EFCore.BulkExtensions, linq2db or Npgsql's binary importer over a row class written per table); " +
                   "none is generated for a described table yet (issue 49, part 3)";
        }

        if (insert.Merges)
        {
            return WhyNoMerge(insert, table);
        }

        return null;
    }

    /// <summary>
    /// A merge (staging table, MERGE by primary key, deletes) needs the key; a GENERATED ALWAYS identity column outside it
    /// can be inserted with the source's value (OVERRIDING SYSTEM VALUE) but never updated to it (UPDATE sets such a
    /// column only to DEFAULT), so a changed row could not be made equal.
    /// </summary>
    private static string? WhyNoMerge(ApproachInfo insert, TableDescription table)
    {
        if (table.PrimaryKey.Count == 0)
        {
            return $"{insert.Name} merges by primary key, and {table.QualifiedName} has none";
        }

        var always = table.Columns.FirstOrDefault(c => c.Identity == "a" && !table.PrimaryKey.Contains(c.Name));
        return always is null
            ? null
            : $"{insert.Name} cannot update {table.QualifiedName}'s column {TableDescription.Quote(always.Name)} to the source's value: " +
              "it is GENERATED ALWAYS AS IDENTITY outside the primary key, which UPDATE sets only to DEFAULT";
    }
}
