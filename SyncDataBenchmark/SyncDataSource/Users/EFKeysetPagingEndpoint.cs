using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Npgsql;
using SyncData.Shared;
using SyncDataSource.Measurement;

namespace SyncDataSource.Users;

// The route is the one the original URLs used; SomeService's consumer declares the same.
[Approach(ApproachKind.Fetch, "EFKeysetPaging", Pages = true, Route = "users/keyset")]
public sealed class EFKeysetPagingEndpoint : IFetchEndpoint
{
    public Delegate Handler => GetPageAfter;

    /// <summary>EFKeysetPaging: the page after a given id, ordered by id; each page is an index range scan.</summary>
    internal static async Task<Results<Ok<List<User>>, ValidationProblem, ProblemHttpResult>> GetPageAfter(
        string? after, string? limit, SendableUsersDbContext db, IOptions<UsersApiOptions> options, RunSnapshots snapshots, HttpRequest request, CancellationToken ct)
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

        var take = UsersApi.ParseLimit(limit, options.Value, errors);
        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors);
        }

        var query = db.Users.AsNoTracking();
        if (afterId is { } id)
        {
            query = query.Where(u => u.Id.CompareTo(id) > 0);
        }

        return await UsersApi.ReadPageAsync(query.OrderBy(u => u.Id).Take(take), db, snapshots, request, ct);
    }
}
