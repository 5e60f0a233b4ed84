using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>EFOffsetPaging: page after page by offset/limit until a short page.</summary>
// The route is the one the original URLs used; SyncDataSource's endpoint declares the same.
[Approach(ApproachKind.Fetch, "EFOffsetPaging", Pages = true, Route = "users/offset")]
public sealed class EFOffsetPagingConsumer(SourceClient client) : IFetchConsumer
{
    private static readonly string Route = Approach.Of(typeof(EFOffsetPagingConsumer)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        for (long offset = 0; ; offset += request.PageSize)
        {
            var uri = SourceRoutes.WithQuery(Route, $"offset={offset}&limit={request.PageSize}");
            var count = 0;
            await using (var body = await client.OpenStreamAsync(uri, ct))
            {
                await foreach (var user in JsonRows.ReadAsync(body, uri, ct))
                {
                    count++;
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
