using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>EFKeysetPaging: page after page by "rows after this id" until a short page.</summary>
// The route is the one the original URLs used; SyncDataSource's endpoint declares the same.
[Approach(ApproachKind.Fetch, "EFKeysetPaging", Pages = true, Route = "users/keyset")]
public sealed class EFKeysetPagingConsumer(SourceClient client) : IFetchConsumer
{
    private static readonly string Route = Approach.Of(typeof(EFKeysetPagingConsumer)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        Guid? after = null;
        while (true)
        {
            var uri = after is { } id
                ? SourceRoutes.WithQuery(Route, $"after={id}&limit={request.PageSize}")
                : SourceRoutes.WithQuery(Route, $"limit={request.PageSize}");
            var count = 0;
            await using (var body = await client.OpenStreamAsync(uri, ct))
            {
                await foreach (var user in JsonRows.ReadAsync(body, uri, ct))
                {
                    count++;
                    after = user.Id;
                    yield return user;
                }
            }

            if (count < request.PageSize)
            {
                yield break;
            }
        }
    }
}
