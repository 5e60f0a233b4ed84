using Microsoft.AspNetCore.Http.HttpResults;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SyncDataSource.Users;

public sealed class EFKeysetPagingEndpoint : IFetchEndpoint<EFKeysetPagingFetch>
{
    public Delegate Handler => GetPageAfter;

    /// <summary>EFKeysetPaging: the page after a given id, ordered by id; each page is an index range scan.</summary>
    internal static Task<Results<Ok<List<User>>, ValidationProblem, ProblemHttpResult>> GetPageAfter(string? after, [AsParameters] PageQuery page, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        Guid? afterId = null;
        if (after is not null)
        {
            if (Guid.TryParse(after, out var parsed))
            {
                afterId = parsed;
            }
            else
            {
                errors["after"] = [$"'{QueryParameter.Truncate(after)}' is not a uuid; omit 'after' for the first page."];
            }
        }

        return page.ReadAsync(errors, users => afterId is { } id ? users.Where(u => u.Id.CompareTo(id) > 0) : users, ct);
    }
}
