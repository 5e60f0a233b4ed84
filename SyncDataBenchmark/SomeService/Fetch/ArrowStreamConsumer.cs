using System.Runtime.CompilerServices;
using SomeService.Tables;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>
/// ArrowStream: one request whose body is an Arrow IPC stream, read batch by batch as it arrives
/// (<see cref="ArrowBatchReader"/>: a stream that ends before Arrow's end-of-stream marker is a failure, never a short
/// success); each batch's rows handed on as they are read, created_at under the same rules as the parsed COPY rows.
/// To the writers that take COPY bytes it hands the batches encoded as binary COPY column by column
/// (<see cref="ArrowCopyStream"/>): no row object on that path.
/// </summary>
public sealed class ArrowStreamConsumer : IBinaryCopyConsumer, IFetchConsumer<ArrowStreamFetch>
{
    private static readonly string Route = ApproachInfo.RouteOf(typeof(ArrowStreamFetch));

    public async IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        var route = SourceRoutes.InTable(Route, table.Table.Name);
        await using var body = await run.OpenStreamAsync(route, ct);
        await foreach (var batch in ArrowBatchReader.ReadAsync(body, route, table.ArrowMismatch, ct))
        {
            // The batch's buffers are native memory: released once its rows have gone on, or when the run stops early.
            using (batch)
            {
                foreach (var row in table.ArrowRows(batch))
                {
                    yield return row;
                }
            }
        }
    }

    /// <summary>
    /// The table's batches encoded as binary COPY from the columns (<see cref="ArrowCopyColumns"/>): numeric's text as
    /// numeric's binary, so the raw writers carry what decimal cannot (NaN, ±Infinity, beyond 28 digits) exactly.
    /// </summary>
    public async Task<Stream> OpenCopyStreamAsync(ConsumerRun run, CancellationToken ct)
    {
        // The table's own schema and encoding (its row table's): a table without them fails here, never gets another's.
        var table = run.Request.RowTable;
        var encoding = table.ArrowCopy;
        var route = SourceRoutes.InTable(Route, run.Request.Table.Name);
        var body = await run.OpenStreamAsync(route, ct);
        return new ArrowCopyStream(body, ArrowBatchReader.ReadAsync(body, route, table.ArrowMismatch, ct), encoding, ct);
    }
}
