using System.Runtime.CompilerServices;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>EFOffsetPaging: page after page by offset/limit until a short page.</summary>
public sealed class EFOffsetPagingConsumer : IFetchConsumer<EFOffsetPagingFetch>
{
    private static readonly string Route = Approach.Of(typeof(EFOffsetPagingFetch)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SourceRun run, [EnumeratorCancellation] CancellationToken ct)
    {
        for (long offset = 0; ; offset += run.Request.PageSize)
        {
            var uri = SourceRoutes.WithQuery(Route, $"offset={offset}&limit={run.Request.PageSize}");
            var count = 0;
            await using (var body = await run.OpenStreamAsync(uri, ct))
            {
                await foreach (var user in JsonRows.ReadAsync(body, uri, ct))
                {
                    count++;
                    yield return user;
                }
            }

            if (count < run.Request.PageSize)
            {
                yield break;
            }
        }
    }
}
