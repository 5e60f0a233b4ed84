using Grpc.Core;
using Npgsql;
using SyncData.Grpc;
using SyncData.Postgres;
using SyncData.ServiceDefaults;
using SyncDataSource.Runs;

namespace SyncDataSource.Users;

/// <summary>
/// GrpcStream's server half: the users table as one server-streaming call of <see cref="UsersMessages.BatchRows"/>-row
/// messages, read with Npgsql straight into the messages (no EF, no <see cref="SyncData.Shared.User"/> in between).
/// gRPC answers HTTP 200 whatever happens and says how the call ended in its trailers, so this class does what
/// UseSourceRuns does for the other fetches by status code: a failed call ends its run at once, and the status it
/// ends with names the cause.
/// </summary>
public sealed class GrpcStreamService(NpgsqlDataSource dataSource, RunSnapshots snapshots, SourceRuns runs) : GrpcStreamSource.GrpcStreamSourceBase
{
    private static readonly string Select = $"select {SyncTable.Users.Columns} from {SyncTable.Users.Name}";

    public override async Task Users(UsersRequest request, IServerStreamWriter<UserBatch> responseStream, ServerCallContext context)
    {
        var http = context.GetHttpContext();
        var run = RunsApi.RunOf(http.Request);
        long sent = 0;
        try
        {
            await AnswerInTheAskedEncodingAsync(http, context);
            await using var lease = snapshots.Acquire(http.Request);
            await using var connection = await dataSource.OpenConnectionAsync(context.CancellationToken);
            // Read only: disposing the transaction (a rollback) loses nothing.
            await using var transaction = lease is null ? null : await lease.BeginAsync(connection, context.CancellationToken);
            await using var command = new NpgsqlCommand(Select, connection, transaction);
            await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SequentialAccess, context.CancellationToken);
            await foreach (var batch in Batches(reader, context.CancellationToken))
            {
                await responseStream.WriteAsync(batch, context.CancellationToken);
                sent += batch.Rows.Count;
            }
        }
        catch (RunConflictException ex)
        {
            // As UseSourceRuns answers it (409): the run is not open here, so there is no run to end.
            throw new RpcException(new Status(StatusCode.FailedPrecondition, ex.Message));
        }
        catch (Exception ex)
        {
            if (run is { } id)
            {
                await runs.FailAsync(id, $"a request of the run failed ({ex.GetType().Name})");
            }

            throw Named(ex, sent);
        }
    }

    /// <summary>
    /// The rows in messages of up to <see cref="UsersMessages.BatchRows"/>. One message and its rows are reused: each is
    /// serialised before the write it is handed to completes.
    /// </summary>
    private static async IAsyncEnumerable<UserBatch> Batches(NpgsqlDataReader reader, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken ct)
    {
        var batch = new UserBatch();
        var rows = Enumerable.Range(0, UsersMessages.BatchRows).Select(_ => new UserRow()).ToArray();
        while (await reader.ReadAsync(ct))
        {
            var row = rows[batch.Rows.Count];
            UsersMessages.Fill(row, reader);
            batch.Rows.Add(row);
            if (batch.Rows.Count == UsersMessages.BatchRows)
            {
                yield return batch;
                batch.Rows.Clear();
            }
        }

        if (batch.Rows.Count > 0)
        {
            yield return batch;
        }
    }

    /// <summary>
    /// The run's compression, asked for by the encoding of its request message (<see cref="GrpcCompression"/>): the
    /// response's messages go in the same one, named in the response's grpc-encoding header.
    /// </summary>
    private static Task AnswerInTheAskedEncodingAsync(HttpContext http, ServerCallContext context) =>
        http.Request.Headers[GrpcCompression.EncodingHeader].ToString() is { Length: > 0 } asked and not "identity"
            ? context.WriteResponseHeadersAsync(new Metadata { { GrpcCompression.RequestHeader, asked } })
            : Task.CompletedTask;

    /// <summary>The status the call ends with: the cause in its own words, after how many rows.</summary>
    private RpcException Named(Exception ex, long sent)
    {
        if (ex is RpcException rpc)
        {
            return rpc;
        }

        if (PostgresPool.IsDatabaseUnreachable(ex))
        {
            dataSource.ClearIfConnectionFailure(ex);
            return new RpcException(new Status(StatusCode.Unavailable,
                $"This service's database is unreachable; retry once it is back. ({Chain(ex)}) {sent:N0} rows had been sent."));
        }

        return new RpcException(new Status(ex is OperationCanceledException ? StatusCode.Cancelled : StatusCode.Internal,
            $"reading users failed after {sent:N0} rows were sent: {Chain(ex)}"));
    }

    /// <summary>The exception and, when another, what it wraps at the bottom: "NpgsqlException: … ← EndOfStreamException: …".</summary>
    private static string Chain(Exception ex) =>
        ex.GetBaseException() is { } inner && inner != ex ? $"{ex.GetType().Name}: {ex.Message} ← {inner.GetType().Name}: {inner.Message}" : $"{ex.GetType().Name}: {ex.Message}";
}
