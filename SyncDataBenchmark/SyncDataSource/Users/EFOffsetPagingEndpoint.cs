using Microsoft.AspNetCore.Http.HttpResults;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SyncDataSource.Users;

public sealed class EFOffsetPagingEndpoint : IFetchEndpoint<EFOffsetPagingFetch>
{
    public Delegate Handler => GetPageByOffset;

    /// <summary>EFOffsetPaging: Skip/Take ordered by id. Deep pages make PostgreSQL walk and discard `offset` rows.</summary>
    internal static Task<Results<Ok<List<User>>, ValidationProblem, ProblemHttpResult>> GetPageByOffset(string? offset, [AsParameters] PageQuery page, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var skip = UsersApi.ParseNumber(offset, "offset", 0, long.MaxValue, errors, required: true);
        return page.ReadAsync(errors, users => users.Skip((int)Math.Min(skip, int.MaxValue)), ct);
    }
}
