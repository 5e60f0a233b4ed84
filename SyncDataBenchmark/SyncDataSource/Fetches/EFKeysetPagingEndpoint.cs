using Microsoft.AspNetCore.Http.HttpResults;
using SyncData.Shared.Fetches;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

public sealed class EFKeysetPagingEndpoint : IFetchEndpoint<EFKeysetPagingFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (string? after, [AsParameters] PageQuery page, CancellationToken ct) => GetPageAfter(table, after, page, ct);

    /// <summary>EFKeysetPaging: the page after a given key, ordered by the key; each page is an index range scan.</summary>
    internal static Task<Results<Ok<List<TRow>>, ValidationProblem, ProblemHttpResult>> GetPageAfter<TRow>(SourceTable<TRow> table, string? after, PageQuery page, CancellationToken ct)
        where TRow : class
    {
        var errors = new Dictionary<string, string[]>();
        var isAfter = after is null ? null : table.After(after, errors);
        return page.ReadAsync(table, errors, rows => isAfter is null ? rows : rows.Where(isAfter), ct);
    }

    /// <summary>A described table's page after a key, through its generated classes (<see cref="DescribedRowClasses"/>).</summary>
    public Delegate DescribedHandler() =>
        (string table, string? after, [AsParameters] DescribedPage page, HttpContext http, DescribedTables tables, DescribedRowClasses classes, CancellationToken ct) =>
            DescribedTableEndpoints.ServeAsync(table, http, tables, ct, t => DescribedTableEndpoints.AnswerAsync(classes, t, http, rows => rows.PageAfterAsync(after, page, ct)));
}
