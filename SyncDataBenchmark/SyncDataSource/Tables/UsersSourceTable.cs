using System.Linq.Expressions;
using Microsoft.EntityFrameworkCore;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>The users table at the source: keyed by its uuid.</summary>
public sealed class UsersSourceTable : SourceTable<User>
{
    public override SyncTable Table => SyncTable.Users;

    public override IQueryable<User> Rows(SendableDbContext db) => db.Users.AsNoTracking();

    public override IQueryable<User> ChangedRows(SendableDbContext db, string since) =>
        db.Users.FromSqlRaw(SendableDbContext.GuardedChangedUsers, new Npgsql.NpgsqlParameter("since", since)).AsNoTracking();

    public override IOrderedQueryable<User> ByKey(IQueryable<User> rows) => rows.OrderBy(u => u.Id);

    public override Expression<Func<User, bool>>? After(string after, Dictionary<string, string[]> errors)
    {
        if (Guid.TryParse(after, out var id))
        {
            return u => u.Id.CompareTo(id) > 0;
        }

        errors["after"] = [$"'{QueryParameter.Truncate(after)}' is not a uuid; omit 'after' for the first page."];
        return null;
    }

    public override ArrowSourceRows NewArrowRows() => new UsersArrowRows();
}
