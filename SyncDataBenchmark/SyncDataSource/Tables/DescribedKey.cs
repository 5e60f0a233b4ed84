using System.Linq.Expressions;
using System.Reflection;
using System.Runtime.CompilerServices;
using Microsoft.EntityFrameworkCore;
using SyncData.Model.Generated;
using SyncData.Shared;

namespace SyncDataSource.Tables;

/// <summary>
/// A generated entity's primary key as its [PrimaryKey] declares it: the order a described table's pages are cut in
/// (every key column, composite keys too), and the keyset filter, the row comparison <c>(a, b, …) &gt; (@a, @b, …)</c>
/// over the whole key (Npgsql's <c>EF.Functions.GreaterThan</c> over <c>ValueTuple.Create</c>), which the key's
/// index serves and which orders as ORDER BY does (the same collations, an enum by its labels' order).
/// </summary>
internal static class DescribedKey<TRow>
    where TRow : class
{
    /// <summary>The most columns ValueTuple.Create takes, so the most a row comparison through it can hold.</summary>
    private const int MostColumns = 8;

    private static readonly IReadOnlyList<string> Properties = typeof(TRow).GetCustomAttribute<PrimaryKeyAttribute>()?.PropertyNames ?? [];

    private static readonly PropertyInfo[] KeyProperties = [.. Properties.Select(p => typeof(TRow).GetProperty(p)!)];

    private static readonly Type[] KeyTypes = [.. KeyProperties.Select(p => p.PropertyType)];

    /// <summary>ValueTuple.Create over the key's types, found once: both sides of the comparison are built by it for every page.</summary>
    private static readonly MethodInfo? CreateTuple = KeyTypes.Length is > 0 and <= MostColumns
        ? typeof(ValueTuple).GetMethods().Single(m => m.Name == nameof(ValueTuple.Create) && m.GetGenericArguments().Length == KeyTypes.Length).MakeGenericMethod(KeyTypes)
        : null;

    private static readonly MethodInfo GreaterThan = typeof(NpgsqlDbFunctionsExtensions).GetMethod(
        nameof(NpgsqlDbFunctionsExtensions.GreaterThan), [typeof(DbFunctions), typeof(ITuple), typeof(ITuple)])!;

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

    /// <summary>"The key is after <paramref name="after"/>" (<see cref="GeneratedKey"/>'s text); null and an error under "after" if it is not the key's values.</summary>
    public static Expression<Func<TRow, bool>>? After(string after, Dictionary<string, string[]> errors)
    {
        if (KeyTypes.Length is 0 or > MostColumns)
        {
            errors["after"] = [KeyTypes.Length == 0
                ? "keyset paging takes a table with a primary key."
                : $"keyset paging compares the key as one row value, of at most {MostColumns} columns (ValueTuple.Create's); this key has {KeyTypes.Length}."];
            return null;
        }

        if (GeneratedKey.Parse(after, KeyTypes, out var error) is not { } values)
        {
            errors["after"] = [$"'{QueryParameter.Truncate(after)}': {error} Omit 'after' for the first page."];
            return null;
        }

        // As the compiler writes EF.Functions.GreaterThan(ValueTuple.Create(r.A, r.B), ValueTuple.Create(a, b)) with a
        // and b captured: each value a field of a closure object, which EF Core sends as a parameter.
        var row = Expression.Parameter(typeof(TRow), "r");
        var left = Tuple(KeyProperties.Select(p => (Expression)Expression.Property(row, p)));
        var right = Tuple(values.Select((v, i) => Captured(v!, KeyTypes[i])));
        var functions = Expression.Property(null, typeof(EF), nameof(EF.Functions));
        var compared = Expression.Call(GreaterThan, functions, Expression.Convert(left, typeof(ITuple)), Expression.Convert(right, typeof(ITuple)));
        return Expression.Lambda<Func<TRow, bool>>(compared, row);
    }

    /// <summary>ValueTuple.Create(<paramref name="items"/>): Npgsql translates the call to a row value.</summary>
    private static MethodCallExpression Tuple(IEnumerable<Expression> items) => Expression.Call(CreateTuple!, items);

    /// <summary>A value as a captured local reads: the field of a constant holder (StrongBox), so a parameter, not a literal.</summary>
    private static MemberExpression Captured(object value, Type type)
    {
        var box = (IStrongBox)Activator.CreateInstance(typeof(StrongBox<>).MakeGenericType(type), value)!;
        return Expression.Field(Expression.Constant(box), nameof(StrongBox<object>.Value));
    }
}
