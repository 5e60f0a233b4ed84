using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>
/// What the paging endpoints share (bound with [AsParameters]): the limit, the validation answer, and one page read in
/// the run's snapshot, ordered by id. A value the wire cannot carry becomes a named 422.
/// </summary>
public sealed record PageQuery(string? Limit, SendableDbContext Db, IOptions<FetchApiOptions> Options, RunSnapshots Snapshots, HttpRequest Request)
{
    /// <summary>
    /// Reads the page <paramref name="select"/> picks from <paramref name="table"/>'s rows ordered by key, or answers the
    /// errors found so far (<paramref name="errors"/>, with the limit's). Each page of a run reads the run's snapshot, so
    /// rows cannot shift between pages while the source takes writes.
    /// </summary>
    public async Task<Results<Ok<List<TRow>>, ValidationProblem, ProblemHttpResult>> ReadAsync<TRow>(SourceTable<TRow> table,
        Dictionary<string, string[]> errors, Func<IOrderedQueryable<TRow>, IQueryable<TRow>> select, CancellationToken ct)
        where TRow : class
    {
        var take = (int)FetchApi.ParseNumber(Limit, "limit", 1, Options.Value.MaxPageSize, errors, required: true);
        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors);
        }

        await using var lease = Snapshots.Acquire(Request);
        await using var transaction = lease is null ? null : await lease.BeginAsync(Db.Database, ct);
        try
        {
            return TypedResults.Ok(await select(table.ByKey(table.Rows(Db))).Take(take).ToListAsync(ct));
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return FetchApi.Unsendable(SendableDbContext.Unsendable(ex) ?? throw ex.Rethrown());
        }
    }
}
