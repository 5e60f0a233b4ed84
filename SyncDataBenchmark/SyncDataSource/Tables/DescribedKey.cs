using System.Globalization;
using System.Linq.Expressions;
using System.Reflection;
using Microsoft.EntityFrameworkCore;
using SyncData.Shared;

namespace SyncDataSource.Tables;

/// <summary>
/// A generated entity's primary key as its [PrimaryKey] declares it: the order a described table's pages are cut in
/// (every key column, composite keys too), and the keyset filter for a one-column key of bigint or uuid, as
/// UsersSourceTable and OrdersSourceTable write theirs by hand.
/// </summary>
internal static class DescribedKey<TRow>
    where TRow : class
{
    private static readonly IReadOnlyList<string> Properties = typeof(TRow).GetCustomAttribute<PrimaryKeyAttribute>()?.PropertyNames ?? [];

    /// <summary>The key's property when the key is one column (keyset paging's filter), else null.</summary>
    private static readonly System.Reflection.PropertyInfo? OneKey = Properties is [var one] ? typeof(TRow).GetProperty(one) : null;

    /// <summary>Whether the table has a primary key: without one its pages have no order (DescribedTableReach refuses the paging fetches before).</summary>
    public static bool Exists => Properties.Count > 0;

    public static IOrderedQueryable<TRow> ByKey(IQueryable<TRow> rows)
    {
        // Each name a local the lambda captures: EF Core reads a captured local directly, but evaluates any other
        // expression in the query (an indexer on the static list) by compiling it, on every page.
        var first = Properties[0];
        var ordered = rows.OrderBy(r => EF.Property<object>(r, first));
        foreach (var name in Properties.Skip(1))
        {
            ordered = ordered.ThenBy(r => EF.Property<object>(r, name));
        }

        return ordered;
    }

    /// <summary>"The key is after <paramref name="after"/>"; null and an error under "after" if the key is not one column of bigint or uuid, or this is not one of its values.</summary>
    public static Expression<Func<TRow, bool>>? After(string after, Dictionary<string, string[]> errors)
    {
        var key = OneKey;
        var name = key?.Name ?? "";
        if (key?.PropertyType == typeof(long) && long.TryParse(after, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var number))
        {
            return r => EF.Property<long>(r, name) > number;
        }

        if (key?.PropertyType == typeof(Guid) && Guid.TryParse(after, out var id))
        {
            return r => EF.Property<Guid>(r, name).CompareTo(id) > 0;
        }

        errors["after"] = [key is { PropertyType: var type } && (type == typeof(long) || type == typeof(Guid))
            ? $"'{QueryParameter.Truncate(after)}' is not a {(type == typeof(long) ? "bigint" : "uuid")}; omit 'after' for the first page."
            : "keyset paging takes a table whose primary key is one column of bigint or uuid."];
        return null;
    }
}
