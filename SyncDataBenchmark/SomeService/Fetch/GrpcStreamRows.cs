using Google.Protobuf;
using Grpc.Core;
using SyncData.Grpc;

namespace SomeService.Fetch;

/// <summary>
/// A table's GrpcStream call whose messages are batches of <typeparamref name="TBatch"/>: one small class per table
/// says which call and how a batch's messages become rows; the reading is written once here.
/// </summary>
public abstract class GrpcStreamRows<TRow, TBatch> : IGrpcStreamRows<TRow>
    where TBatch : class, IMessage
{
    public async IAsyncEnumerable<TRow> ReadAsync(CallInvoker invoker, CallOptions options, IGrpcMessageReader messages)
    {
        using var call = Call(invoker, options);
        while (await messages.NextAsync(call.ResponseStream) is { } batch)
        {
            foreach (var row in RowsOf(batch))
            {
                yield return row;
            }
        }
    }

    /// <summary>The table's call on <paramref name="invoker"/>: its method in grpc_stream.proto, or a described table's (DescribedCall).</summary>
    protected abstract AsyncServerStreamingCall<TBatch> Call(CallInvoker invoker, CallOptions options);

    /// <summary>The batch's rows as the table's row type; a value that type cannot hold throws a <see cref="SourceStreamException"/> naming its row, column and value.</summary>
    protected abstract IEnumerable<TRow> RowsOf(TBatch batch);
}
