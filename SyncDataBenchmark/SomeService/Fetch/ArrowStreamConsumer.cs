using System.Runtime.CompilerServices;
using SyncData.Arrow;
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
    private static readonly string Route = Approach.Of(typeof(ArrowStreamFetch)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SourceRun run, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var body = await run.OpenStreamAsync(Route, ct);
        await foreach (var batch in ArrowBatchReader.ReadAsync(body, Route, UsersArrow.Mismatch, ct))
        {
            // The batch's buffers are native memory: released once its rows have gone on, or when the run stops early.
            using (batch)
            {
                foreach (var user in UsersArrow.Rows(batch, UsersCopyDecoder.CreatedAt))
                {
                    yield return user;
                }
            }
        }
    }

    public async Task<Stream> OpenCopyStreamAsync(SourceRun run, CancellationToken ct)
    {
        var body = await run.OpenStreamAsync(Route, ct);
        return new ArrowCopyStream(body, ArrowBatchReader.ReadAsync(body, Route, UsersArrow.Mismatch, ct), ct);
    }
}
