using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>EFKeysetPaging: page after page by "rows after this id" until a short page.</summary>
[Approach(FetchApproach.EFKeysetPaging)]
public sealed class EFKeysetPagingSource(SourceClient client) : IUserSource
{
    public bool UsesPages => true;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        Guid? after = null;
        while (true)
        {
            var uri = SourceRoutes.KeysetPage(after, request.PageSize);
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
