using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>EFOffsetPaging: page after page by offset/limit until a short page.</summary>
[Approach(FetchApproach.EFOffsetPaging)]
public sealed class EFOffsetPagingSource(SourceClient client) : IUserSource
{
    public bool UsesPages => true;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        for (long offset = 0; ; offset += request.PageSize)
        {
            var uri = SourceRoutes.OffsetPage(offset, request.PageSize);
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
