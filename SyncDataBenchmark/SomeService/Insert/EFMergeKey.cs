using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;

namespace SomeService.Insert;

/// <summary>
/// A table's primary key as the EF merges use it, typed (<typeparamref name="TKey"/>: Guid for users, long for orders),
/// read from the EF model rather than written per table: a row's key, the keys a change fetch reports deleted (as the
/// source prints them), and the queries by key EF translates to <c>= ANY(@keys)</c>.
/// </summary>
internal sealed class EFMergeKey<TRow, TKey>(IProperty key)
    where TRow : class
    where TKey : notnull, IParsable<TKey>
{
    private readonly IClrPropertyGetter _getter = key.GetGetter();

    public TKey Of(TRow row) => (TKey)_getter.GetClrValue(row)!;

    public static List<TKey> Parse(IEnumerable<string> keys) => [.. keys.Select(k => TKey.Parse(k, CultureInfo.InvariantCulture))];

    /// <summary>The rows of <paramref name="rows"/> whose key is one of <paramref name="keys"/>.</summary>
    public IQueryable<TRow> Having(IQueryable<TRow> rows, List<TKey> keys) => rows.Where(r => keys.Contains(EF.Property<TKey>(r, key.Name)));

    /// <summary>Every key of <paramref name="rows"/>.</summary>
    public IQueryable<TKey> All(IQueryable<TRow> rows) => rows.Select(r => EF.Property<TKey>(r, key.Name));
}
