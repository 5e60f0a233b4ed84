using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Npgsql;
using SyncData.Shared;
using SyncDataSource.Measurement;

namespace SyncDataSource.Users;

// The route is the one the original URLs used; SomeService's consumer declares the same.
[Approach(ApproachKind.Fetch, "EFOffsetPaging", Pages = true, Route = "users/offset")]
public sealed class EFOffsetPagingEndpoint : IFetchEndpoint
{
    public Delegate Handler => GetPageByOffset;

    /// <summary>EFOffsetPaging: Skip/Take ordered by id. Deep pages make PostgreSQL walk and discard `offset` rows.</summary>
    internal static async Task<Results<Ok<List<User>>, ValidationProblem, ProblemHttpResult>> GetPageByOffset(
        string? offset, string? limit, SendableUsersDbContext db, IOptions<UsersApiOptions> options, RunSnapshots snapshots, HttpRequest request, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var skip = UsersApi.ParseNumber(offset, "offset", 0, long.MaxValue, errors, required: true);
        var take = UsersApi.ParseLimit(limit, options.Value, errors);
        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors);
        }

        return await UsersApi.ReadPageAsync(db.Users.AsNoTracking().OrderBy(u => u.Id).Skip((int)Math.Min(skip, int.MaxValue)).Take(take), db, snapshots, request, ct);
    }
}
