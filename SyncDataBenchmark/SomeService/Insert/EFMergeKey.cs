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

    /// <summary>The key's column as the model maps it.</summary>
    public string Column => key.GetColumnName();

    public static List<TKey> Parse(IEnumerable<string> keys) => [.. keys.Select(k => TKey.Parse(k, CultureInfo.InvariantCulture))];

    /// <summary>The rows of <paramref name="rows"/> whose key is one of <paramref name="keys"/>.</summary>
    public IQueryable<TRow> Having(IQueryable<TRow> rows, List<TKey> keys) => rows.Where(r => keys.Contains(EF.Property<TKey>(r, key.Name)));

    /// <summary>
    /// The keys a merge deletes: those a change fetch reported, or with a full fetch every target key the source did not
    /// send (<paramref name="sent"/>), found by reading the target's keys and comparing.
    /// </summary>
    public async Task<List<TKey>> GoneAsync(DbContext db, MergeScope scope, HashSet<TKey>? sent, CancellationToken ct) =>
        scope.IsWholeTable
            ? [.. (await db.Set<TRow>().Select(r => EF.Property<TKey>(r, key.Name)).ToListAsync(ct)).Where(k => !sent!.Contains(k))]
            : Parse(scope.DeletedKeys!);
}
