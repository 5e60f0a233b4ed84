using System.Runtime.CompilerServices;
using SomeService.Tables;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>
/// NpgsqlCopyChanges: one request whose body is the binary COPY of the rows changed since the run's watermark, parsed
/// row by row as NpgsqlCopy's, or relayed unparsed (the same column order as the whole table's).
/// </summary>
public sealed class NpgsqlCopyChangesConsumer : IBinaryCopyConsumer, IFetchConsumer<NpgsqlCopyChangesFetch>
{
    private static readonly string Route = ApproachInfo.RouteOf(typeof(NpgsqlCopyChangesFetch));

    public async IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        await using var body = await run.OpenStreamAsync(SourceRoutes.ChangedSince(SourceRoutes.InTable(Route, table.Table.Name), run.RequireSince()), ct);
        await foreach (var row in BinaryCopyReader.ReadAsync(body, table, ct))
        {
            yield return row;
        }
    }

    public Task<Stream> OpenCopyStreamAsync(ConsumerRun run, CancellationToken ct) =>
        run.OpenStreamAsync(SourceRoutes.ChangedSince(SourceRoutes.InTable(Route, run.Request.Table.Name), run.RequireSince()), ct);
}
