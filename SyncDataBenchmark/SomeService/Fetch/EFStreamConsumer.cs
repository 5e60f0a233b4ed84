using System.Runtime.CompilerServices;
using SomeService.Tables;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>EFStream: one request, one JSON array streamed from EF's AsAsyncEnumerable.</summary>
public sealed class EFStreamConsumer : IFetchConsumer<EFStreamFetch>
{
    private static readonly string Route = ApproachInfo.RouteOf(typeof(EFStreamFetch));

    public async IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        var route = SourceRoutes.InTable(Route, table.Table.Name);
        await using var body = await run.OpenStreamAsync(route, ct);
        await foreach (var row in JsonRows.ReadAsync(body, table.Json, route, ct))
        {
            yield return row;
        }
    }
}
