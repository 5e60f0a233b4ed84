using Grpc.Core;
using SyncData.Grpc;

namespace SomeService.Fetch;

/// <summary>One table on GrpcStream, as SomeService reads it (its <see cref="Tables.RowTable{TRow}"/> names it): the table's call and its messages' rows.</summary>
public interface IGrpcStreamRows<TRow>
{
    /// <summary>Makes the table's call on <paramref name="invoker"/> and yields its rows, each message awaited through <paramref name="messages"/>.</summary>
    IAsyncEnumerable<TRow> ReadAsync(CallInvoker invoker, CallOptions options, IGrpcMessageReader messages);
}
