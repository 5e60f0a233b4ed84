using System.Runtime.CompilerServices;
using SomeService.Tables;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>EFOffsetPaging: page after page by offset/limit until a short page.</summary>
public sealed class EFOffsetPagingConsumer : IFetchConsumer<EFOffsetPagingFetch>
{
    private static readonly string Route = ApproachInfo.RouteOf(typeof(EFOffsetPagingFetch));

    public async IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        var route = SourceRoutes.InTable(Route, table.Table.Name);
        for (long offset = 0; ; offset += run.Request.PageSize)
        {
            var uri = SourceRoutes.WithQuery(route, $"offset={offset}&limit={run.Request.PageSize}");
            var count = 0;
            await using (var body = await run.OpenStreamAsync(uri, ct))
            {
                await foreach (var row in JsonRows.ReadAsync(body, table.Json, uri, ct))
                {
                    count++;
                    yield return row;
                }
            }

            if (count < run.Request.PageSize)
            {
                yield break;
            }
        }
    }
}
