using System.Text.Json.Serialization.Metadata;
using Microsoft.EntityFrameworkCore;
using SyncData.Model.Generated;
using SyncDataSource.Fetches;
using SyncDataSource.Runs;

namespace SyncDataSource.Tables;

/// <summary>
/// A described table's rows as objects of the entity class generated from the source's catalog (SyncData.Model/Generated),
/// read through its generated EF context by the guarded query derived from the description (SendableSelect), which the
/// context's model maps the entity to (<see cref="SendableQueryTail"/>): what a team
/// would write with its own entity, as the lab's EF fetches read users and orders: streamed (EFStream) or paged in key
/// order (EFOffsetPaging, EFKeysetPaging: <see cref="DescribedKey{TRow}"/>). Its contexts come from a pool over a data
/// source of the table's own, on which the generated enums are mapped (<see cref="DescribedRowClasses"/>).
/// </summary>
public sealed class DescribedSourceRows<TRow>(Func<DbContext> pooled) : IDescribedSourceRows
    where TRow : class
{
    private static readonly JsonTypeInfo<IAsyncEnumerable<TRow>> Json = GeneratedRowJson.Of<IAsyncEnumerable<TRow>>();

    private static readonly JsonTypeInfo<List<TRow>> PageJson = GeneratedRowJson.Of<List<TRow>>();

    public async Task StreamAsync(HttpContext http, RunSnapshots snapshots, CancellationToken ct)
    {
        await using var db = pooled();
        await JsonRowStream.WriteAsync(Rows, http, db, snapshots, Json, ct);
    }

    public Task<IResult> PageByOffsetAsync(string? offset, DescribedPage page, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var skip = FetchApi.ParseNumber(offset, "offset", 0, long.MaxValue, errors, required: true);
        return ReadPageAsync(page, errors, rows => rows.Skip((int)Math.Min(skip, int.MaxValue)), ct);
    }

    public Task<IResult> PageAfterAsync(string? after, DescribedPage page, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var isAfter = after is null ? null : DescribedKey<TRow>.After(after, errors);
        return ReadPageAsync(page, errors, rows => isAfter is null ? rows : rows.Where(isAfter), ct);
    }

    /// <summary>The rows by the guarded query the context's model maps the entity to (<see cref="SendableQueryTail"/>).</summary>
    private static IQueryable<TRow> Rows(DbContext db) => db.Set<TRow>().AsNoTracking();

    /// <summary>The page <paramref name="select"/> picks from the rows in key order, read in the run's snapshot, or the errors found so far; a refused value is a named 422.</summary>
    private async Task<IResult> ReadPageAsync(DescribedPage page, Dictionary<string, string[]> errors, Func<IOrderedQueryable<TRow>, IQueryable<TRow>> select, CancellationToken ct)
    {
        var take = (int)FetchApi.ParseNumber(page.Limit, "limit", 1, page.Options.Value.MaxPageSize, errors, required: true);
        if (!DescribedKey<TRow>.Exists)
        {
            errors["table"] = ["the table has no primary key, so its pages have no order"];
        }

        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors);
        }

        await using var db = pooled();
        await using var lease = page.Snapshots.Acquire(page.Request);
        await using var transaction = lease is null ? null : await lease.BeginAsync(db.Database, ct);
        try
        {
            return TypedResults.Json(await select(DescribedKey<TRow>.ByKey(Rows(db))).Take(take).ToListAsync(ct), PageJson);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return FetchApi.Unsendable(SendableDbContext.Unsendable(ex) ?? throw ex.Rethrown());
        }
    }
}
