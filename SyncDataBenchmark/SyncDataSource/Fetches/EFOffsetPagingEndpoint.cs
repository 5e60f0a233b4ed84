using Microsoft.AspNetCore.Http.HttpResults;
using SyncData.Shared.Fetches;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

public sealed class EFOffsetPagingEndpoint : IFetchEndpoint<EFOffsetPagingFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (string? offset, [AsParameters] PageQuery page, CancellationToken ct) => GetPageByOffset(table, offset, page, ct);

    /// <summary>EFOffsetPaging: Skip/Take ordered by the key. Deep pages make PostgreSQL walk and discard `offset` rows.</summary>
    internal static Task<Results<Ok<List<TRow>>, ValidationProblem, ProblemHttpResult>> GetPageByOffset<TRow>(SourceTable<TRow> table, string? offset, PageQuery page, CancellationToken ct)
        where TRow : class
    {
        var errors = new Dictionary<string, string[]>();
        var skip = FetchApi.ParseNumber(offset, "offset", 0, long.MaxValue, errors, required: true);
        return page.ReadAsync(table, errors, rows => rows.Skip((int)Math.Min(skip, int.MaxValue)), ct);
    }

    /// <summary>A described table's page by offset, through its generated classes (<see cref="DescribedRowClasses"/>).</summary>
    public Delegate DescribedHandler() =>
        (string table, string? offset, [AsParameters] DescribedPage page, HttpContext http, DescribedTables tables, DescribedRowClasses classes, CancellationToken ct) =>
            DescribedTableEndpoints.ServeAsync(table, http, tables, ct, t => DescribedTableEndpoints.AnswerAsync(classes, t, http, rows => rows.PageByOffsetAsync(offset, page, ct)));
}
