using Microsoft.EntityFrameworkCore;

namespace SomeService.Insert;

/// <summary>
/// A table's primary key as the EF merges use it, read from the EF model rather than written per table: a row's key
/// (<typeparamref name="TKey"/>), the rows holding some keys, and the keys a merge deletes. One column of the lab's key
/// types is <see cref="EFColumnKey{TRow, TKey}"/> (EF translates its lookups to <c>= ANY(@keys)</c>); any other key,
/// composite or not, is <see cref="EFCompositeKey{TRow}"/>, matched on every column.
/// </summary>
internal abstract class EFMergeKey<TRow, TKey>
    where TRow : class
    where TKey : notnull
{
    public abstract TKey Of(TRow row);

    /// <summary>The key's columns as the model maps them, for a refusal: "id", "(region, order)".</summary>
    public abstract string Column { get; }

    /// <summary>A one-column key's value, else null (EFCore.BulkExtensions decides by it whether the keys are the database's to generate).</summary>
    public abstract object? OnlyValue(TKey key);

    /// <summary>The rows of <paramref name="rows"/> whose key is one of <paramref name="keys"/>.</summary>
    public abstract IQueryable<TRow> Having(IQueryable<TRow> rows, List<TKey> keys);

    /// <summary>Every key the target holds.</summary>
    protected abstract Task<List<TKey>> ReadAllAsync(DbContext db, CancellationToken ct);

    /// <summary>The keys a change fetch reports deleted, as the source prints them.</summary>
    protected abstract List<TKey> Parse(IReadOnlyList<string> keys);

    /// <summary>
    /// The keys a merge deletes: those a change fetch reported, or with a full fetch every target key the source did not
    /// send (<paramref name="sent"/>), found by reading the target's keys and comparing.
    /// </summary>
    public async Task<List<TKey>> GoneAsync(DbContext db, MergeScope scope, HashSet<TKey>? sent, CancellationToken ct) =>
        scope.IsWholeTable
            ? [.. (await ReadAllAsync(db, ct)).Where(k => !sent!.Contains(k))]
            : Parse(scope.DeletedKeys!);
}
