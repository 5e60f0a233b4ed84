using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;

namespace SomeService.Insert;

/// <summary>
/// A one-column key of the lab's key types (Guid for users, long for orders), typed: the keys a change fetch reports
/// deleted are parsed as the source prints them, and the lookups by key EF translates to <c>= ANY(@keys)</c>.
/// </summary>
internal sealed class EFColumnKey<TRow, TKey>(IProperty key) : EFMergeKey<TRow, TKey>
    where TRow : class
    where TKey : notnull, IParsable<TKey>
{
    private readonly IClrPropertyGetter _getter = key.GetGetter();

    public override TKey Of(TRow row) => (TKey)_getter.GetClrValue(row)!;

    public override string Column => key.GetColumnName();

    public override object? OnlyValue(TKey value) => value;

    public override IQueryable<TRow> Having(IQueryable<TRow> rows, List<TKey> keys) => rows.Where(r => keys.Contains(EF.Property<TKey>(r, key.Name)));

    protected override Task<List<TKey>> ReadAllAsync(DbContext db, CancellationToken ct) => db.Set<TRow>().Select(r => EF.Property<TKey>(r, key.Name)).ToListAsync(ct);

    protected override List<TKey> Parse(IReadOnlyList<string> keys) => [.. keys.Select(k => TKey.Parse(k, CultureInfo.InvariantCulture))];
}
