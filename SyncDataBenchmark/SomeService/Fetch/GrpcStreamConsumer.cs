using System.Runtime.CompilerServices;
using Google.Protobuf;
using Grpc.Core;
using SomeService.Tables;
using SyncData.Grpc;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>
/// GrpcStream: one server-streaming gRPC call of the table (<see cref="RowTable{TRow}.GrpcStream"/>); each message a
/// batch of rows. The call ends with a status in its trailers, so a stream that stops early is a named failure, never a
/// short table; the idle timeout guards every message; the run's compression is gRPC's own message compression (<see cref="GrpcCompression"/>).
/// </summary>
public sealed class GrpcStreamConsumer : IFetchConsumer<GrpcStreamFetch>
{
    /// <summary>Each message's frame on the wire: a compressed flag and a 4-byte length.</summary>
    private const int FrameHeaderBytes = 5;

    public async IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        var (channel, handler) = GrpcStreamChannel.Open(run);
        using var _ = channel;
        using var idle = new CancellationTokenSource();
        // The call's own token: a silence longer than the idle timeout cancels the call at the source too (RST_STREAM).
        using var callToken = CancellationTokenSource.CreateLinkedTokenSource(ct, idle.Token);
        var read = new Reading(run, handler, idle, ct);
        await foreach (var row in table.GrpcStream.ReadAsync(channel.CreateCallInvoker(), new CallOptions(Asking(run), cancellationToken: callToken.Token), read))
        {
            read.Rows++;
            yield return row;
        }
    }

    /// <summary>The call's metadata: the run's compression, asked for by compressing the request in it.</summary>
    private static Metadata Asking(ConsumerRun run) =>
        GrpcCompression.Encoding(run.Request.Compression) is { } encoding ? new Metadata { { GrpcCompression.RequestHeader, encoding } } : [];

    /// <summary>One call's messages, each awaited under the idle timeout, every failure named as the source's.</summary>
    private sealed class Reading(ConsumerRun run, GrpcStreamChannel handler, CancellationTokenSource idle, CancellationToken ct) : IGrpcMessageReader
    {
        private bool _encodingChecked;

        /// <summary>Rows handed on so far, for a failure that says after how many.</summary>
        public long Rows { get; set; }

        public async Task<TMessage?> NextAsync<TMessage>(IAsyncStreamReader<TMessage> messages)
            where TMessage : class, IMessage
        {
            idle.CancelAfter(run.IdleTimeout);
            bool more;
            try
            {
                more = await messages.MoveNext(CancellationToken.None);
            }
            catch (RpcException ex) when (ct.IsCancellationRequested)
            {
                // The run's cancellation, as every other fetch reports it.
                throw new OperationCanceledException("The run was cancelled.", ex, ct);
            }
            catch (RpcException ex) when (idle.IsCancellationRequested)
            {
                throw new SourceStreamException(
                    $"SyncDataSource sent nothing for {run.IdleTimeout.TotalSeconds:0.#} s after {Rows:N0} rows of the GrpcStream call (idle timeout).", ex);
            }
            catch (RpcException ex)
            {
                throw new SourceStreamException(
                    $"SyncDataSource ended the GrpcStream call with {ex.StatusCode} after {Rows:N0} rows: {ex.Status.Detail}", ex);
            }
            finally
            {
                idle.CancelAfter(Timeout.InfiniteTimeSpan);
            }

            CheckEncoding();
            if (!more)
            {
                return null;
            }

            var batch = messages.Current;
            if (handler.ResponseEncoding is not null)
            {
                // Compressed, the wire bytes are counted under the decoder; the decoded body is the messages as framed.
                run.AddBody(FrameHeaderBytes + batch.CalculateSize());
            }

            return batch;
        }

        /// <summary>The response's messages are in the encoding the run asked for: a compressed run really was one.</summary>
        private void CheckEncoding()
        {
            if (_encodingChecked)
            {
                return;
            }

            _encodingChecked = true;
            var asked = GrpcCompression.Encoding(run.Request.Compression);
            if (!string.Equals(handler.ResponseEncoding, asked, StringComparison.OrdinalIgnoreCase))
            {
                throw new SourceStreamException(
                    $"SyncDataSource answered the GrpcStream call with grpc-encoding {handler.ResponseEncoding ?? "identity"}, but the run asked for " +
                    $"{run.Request.Compression} ({asked ?? "identity"}): the response came back in another encoding than asked.");
            }
        }
    }
}
