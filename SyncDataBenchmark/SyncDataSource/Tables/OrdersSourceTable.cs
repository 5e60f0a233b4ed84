using System.Globalization;
using System.Linq.Expressions;
using Microsoft.EntityFrameworkCore;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>The orders table at the source: keyed by its bigint id.</summary>
public sealed class OrdersSourceTable : SourceTable<Order>
{
    public override SyncTable Table => SyncTable.Orders;

    public override IQueryable<Order> Rows(SendableDbContext db) => db.Orders.AsNoTracking();

    public override IQueryable<Order> ChangedRows(SendableDbContext db, string since) =>
        db.Orders.FromSqlRaw(SendableDbContext.GuardedChangedOrders, new Npgsql.NpgsqlParameter("since", since)).AsNoTracking();

    public override IOrderedQueryable<Order> ByKey(IQueryable<Order> rows) => rows.OrderBy(o => o.Id);

    public override Expression<Func<Order, bool>>? After(string after, Dictionary<string, string[]> errors)
    {
        if (long.TryParse(after, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var id))
        {
            return o => o.Id > id;
        }

        errors["after"] = [$"'{QueryParameter.Truncate(after)}' is not a bigint; omit 'after' for the first page."];
        return null;
    }

    public override ArrowSourceRows NewArrowRows() => new OrdersArrowRows();
}
