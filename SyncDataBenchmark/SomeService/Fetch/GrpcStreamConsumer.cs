using System.Runtime.CompilerServices;
using Grpc.Core;
using SyncData.Grpc;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>
/// GrpcStream: one server-streaming gRPC call; each message a batch of rows (<see cref="UsersMessages"/>). The call ends
/// with a status in its trailers, so a stream that stops early is a named failure, never a short table; the idle timeout
/// guards every message; the run's compression is gRPC's own message compression (<see cref="GrpcCompression"/>).
/// </summary>
public sealed class GrpcStreamConsumer : IFetchConsumer<GrpcStreamFetch>
{
    /// <summary>Each message's frame on the wire: a compressed flag and a 4-byte length.</summary>
    private const int FrameHeaderBytes = 5;

    public async IAsyncEnumerable<User> ReadAsync(SourceRun run, [EnumeratorCancellation] CancellationToken ct)
    {
        var (channel, handler) = GrpcStreamChannel.Open(run);
        using var _ = channel;
        using var idle = new CancellationTokenSource();
        // The call's own token: a silence longer than the idle timeout cancels the call at the source too (RST_STREAM).
        using var callToken = CancellationTokenSource.CreateLinkedTokenSource(ct, idle.Token);
        using var call = new GrpcStreamSource.GrpcStreamSourceClient(channel).Users(new UsersRequest(), Asking(run), cancellationToken: callToken.Token);
        var read = new Reading(run, call, handler, idle, ct);
        while (await read.NextAsync() is { } batch)
        {
            foreach (var row in batch.Rows)
            {
                yield return UsersMessages.ToUser(row) ?? throw Unrepresentable(row);
            }
        }
    }

    /// <summary>The call's metadata: the run's compression, asked for by compressing the request in it.</summary>
    private static Metadata Asking(SourceRun run) =>
        GrpcCompression.Encoding(run.Request.Compression) is { } encoding ? new Metadata { { GrpcCompression.RequestHeader, encoding } } : [];

    private static SourceStreamException Unrepresentable(UserRow row) =>
        new($"row {UsersMessages.IdOf(row)}: created_at = {PostgresTimestamp.Format(row.CreatedAt)} cannot be carried by a User row: the gRPC message " +
            "holds it exactly, but .NET's DateTime holds years 1–9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity. " +
            "Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged.");

    /// <summary>One call's messages, each awaited under the idle timeout, every failure named as the source's.</summary>
    private sealed class Reading(SourceRun run, AsyncServerStreamingCall<UserBatch> call, GrpcStreamChannel handler, CancellationTokenSource idle, CancellationToken ct)
    {
        private long _rows;
        private bool _encodingChecked;

        /// <summary>The next batch, or null once the source ended the call with OK.</summary>
        public async Task<UserBatch?> NextAsync()
        {
            idle.CancelAfter(run.IdleTimeout);
            bool more;
            try
            {
                more = await call.ResponseStream.MoveNext(CancellationToken.None);
            }
            catch (RpcException ex) when (ct.IsCancellationRequested)
            {
                // The run's cancellation, as every other fetch reports it.
                throw new OperationCanceledException("The run was cancelled.", ex, ct);
            }
            catch (RpcException ex) when (idle.IsCancellationRequested)
            {
                throw new SourceStreamException(
                    $"SyncDataSource sent nothing for {run.IdleTimeout.TotalSeconds:0.#} s after {_rows:N0} rows of the GrpcStream call (idle timeout).", ex);
            }
            catch (RpcException ex)
            {
                throw new SourceStreamException(
                    $"SyncDataSource ended the GrpcStream call with {ex.StatusCode} after {_rows:N0} rows: {ex.Status.Detail}", ex);
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

            var batch = call.ResponseStream.Current;
            _rows += batch.Rows.Count;
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
