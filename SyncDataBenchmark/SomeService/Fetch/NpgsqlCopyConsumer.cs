using System.Runtime.CompilerServices;
using SomeService.Tables;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>NpgsqlCopy: one request whose body is PostgreSQL binary COPY, parsed row by row as it arrives.</summary>
public sealed class NpgsqlCopyConsumer : IBinaryCopyConsumer, IFetchConsumer<NpgsqlCopyFetch>
{
    private static readonly string Route = ApproachInfo.RouteOf(typeof(NpgsqlCopyFetch));

    public async IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        var route = SourceRoutes.InTable(Route, table.Table.Name);
        await using var body = await run.OpenStreamAsync(route, ct);
        await foreach (var row in BinaryCopyReader.ReadAsync(body, table, ct))
        {
            yield return row;
        }
    }

    public Task<Stream> OpenCopyStreamAsync(ConsumerRun run, CancellationToken ct) => run.OpenStreamAsync(SourceRoutes.InTable(Route, run.Request.Table.Name), ct);
}
