using System.Text.Json.Serialization.Metadata;
using Microsoft.EntityFrameworkCore;
using Npgsql;
using SyncData.Model.Generated;
using SyncDataSource.Fetches;
using SyncDataSource.Runs;

namespace SyncDataSource.Tables;

/// <summary>
/// A described table's rows as objects of the entity class generated from the source's catalog (SyncData.Model/Generated),
/// read through its generated EF context by the guarded query derived from the description (SendableSelect): what a team
/// would write with its own entity, as the lab's EF fetches read users and orders. Its connections come from a data
/// source of the table's own, on which the generated enums are mapped (<see cref="DescribedRowClasses"/>).
/// </summary>
public sealed class DescribedSourceRows<TRow>(NpgsqlDataSource dataSource, Func<NpgsqlConnection, int, DbContext> open, string query) : IDescribedSourceRows
    where TRow : class
{
    private static readonly JsonTypeInfo<IAsyncEnumerable<TRow>> Json = GeneratedRowJson.Of<IAsyncEnumerable<TRow>>();

    public async Task StreamAsync(HttpContext http, RunSnapshots snapshots, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var db = open(connection, connection.CommandTimeout);
        await JsonRowStream.WriteAsync(Rows, http, db, snapshots, Json, ct);
    }

    private IQueryable<TRow> Rows(DbContext db) => db.Set<TRow>().FromSqlRaw(query).AsNoTracking();
}
