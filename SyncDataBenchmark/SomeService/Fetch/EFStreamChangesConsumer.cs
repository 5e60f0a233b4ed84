using System.Runtime.CompilerServices;
using SomeService.Tables;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>EFStreamChanges: one request for the rows changed since the run's watermark, one JSON array as EFStream reads it.</summary>
public sealed class EFStreamChangesConsumer : IFetchConsumer<EFStreamChangesFetch>
{
    private static readonly string Route = ApproachInfo.RouteOf(typeof(EFStreamChangesFetch));

    public async IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        var route = SourceRoutes.ChangedSince(SourceRoutes.InTable(Route, table.Table.Name), run.RequireSince());
        await using var body = await run.OpenStreamAsync(route, ct);
        await foreach (var row in JsonRows.ReadAsync(body, table.Json, route, ct))
        {
            yield return row;
        }
    }
}
