using System.Linq.Expressions;
using SyncData.Postgres;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>
/// A table's rows as the fetch endpoints read and send them: the query (guarded: a value the wire cannot carry fails by
/// name, <see cref="SendableDbContext"/>), the key order and keyset filter the paging fetches use (pages and the stream are written by
/// ASP.NET Core's JSON options).
/// One small class per table; the endpoints are written once, over <typeparamref name="TRow"/>.
/// </summary>
public abstract class SourceTable<TRow> : ISourceTable
    where TRow : class
{
    public abstract SyncTable Table { get; }

    public Delegate HandlerOf(IFetchEndpoint endpoint) => endpoint.HandlerFor(this);

    /// <summary>Every row, untracked, as the guarded query reads it.</summary>
    public abstract IQueryable<TRow> Rows(SendableDbContext db);

    /// <summary>
    /// The rows inserted or updated since the watermark <paramref name="since"/> (changed_&lt;table&gt;), untracked,
    /// guarded like <see cref="Rows"/>.
    /// </summary>
    public abstract IQueryable<TRow> ChangedRows(SendableDbContext db, string since);

    /// <summary><paramref name="rows"/> in key order, the order every page is cut in.</summary>
    public abstract IOrderedQueryable<TRow> ByKey(IQueryable<TRow> rows);

    /// <summary>"The key is after <paramref name="after"/>" (a key as the query string carries it); null and an error under "after" if it is no key.</summary>
    public abstract Expression<Func<TRow, bool>>? After(string after, Dictionary<string, string[]> errors);

    /// <summary>A fresh reader and batcher of this table's rows for ArrowStream (its query, schema and column builders).</summary>
    public abstract ArrowSourceRows NewArrowRows();
}
