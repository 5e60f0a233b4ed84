using System.Runtime.CompilerServices;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>EFKeysetPaging: page after page by "rows after this id" until a short page.</summary>
public sealed class EFKeysetPagingConsumer : IFetchConsumer<EFKeysetPagingFetch>
{
    private static readonly string Route = Approach.Of(typeof(EFKeysetPagingFetch)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SourceRun run, [EnumeratorCancellation] CancellationToken ct)
    {
        Guid? after = null;
        while (true)
        {
            var uri = after is { } id
                ? SourceRoutes.WithQuery(Route, $"after={id}&limit={run.Request.PageSize}")
                : SourceRoutes.WithQuery(Route, $"limit={run.Request.PageSize}");
            var count = 0;
            await using (var body = await run.OpenStreamAsync(uri, ct))
            {
                await foreach (var user in JsonRows.ReadAsync(body, uri, ct))
                {
                    count++;
                    after = user.Id;
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
