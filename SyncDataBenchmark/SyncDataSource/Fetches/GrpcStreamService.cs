using System.Data.Common;
using Google.Protobuf;
using Google.Protobuf.Collections;
using Grpc.Core;
using Npgsql;
using SyncData.Grpc;
using SyncData.Postgres;
using SyncData.ServiceDefaults;
using SyncData.Postgres.Catalog;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>
/// GrpcStream's server half: each table as one server-streaming call (one method per table in grpc_stream.proto) of
/// batched messages, read with Npgsql straight into the messages (no EF, no row object in between; the table's
/// messages file says how). gRPC answers HTTP 200 whatever happens and says how the call ended in its trailers, so
/// this class does what UseSourceRuns does for the other fetches by status code: a failed call ends its run at once,
/// and the status it ends with names the cause.
/// </summary>
public sealed class GrpcStreamService(NpgsqlDataSource dataSource, RunSnapshots snapshots, SourceRuns runs, DescribedTables tables, DescribedMessageClasses described)
    : GrpcStreamSource.GrpcStreamSourceBase
{
    private static readonly string UsersSelect = $"select {SyncTable.Users.Columns} from {SyncTable.Users.Name}";

    public override Task Users(UsersRequest request, IServerStreamWriter<UserBatch> responseStream, ServerCallContext context) =>
        ServeAsync(SyncTable.Users, UsersSelect, responseStream, context,
            reader => Batches<UserBatch, UserRow>(reader, UsersMessages.BatchRows, b => b.Rows, UsersMessages.Fill, context.CancellationToken));

    /// <summary>orders' read: every value as PostgreSQL holds it (<see cref="OrdersMessages"/>).</summary>
    private static readonly string OrdersSelect = SendableDbContext.Embedded("grpc-orders.sql");

    public override Task Orders(OrdersRequest request, IServerStreamWriter<OrderBatch> responseStream, ServerCallContext context) =>
        ServeAsync(SyncTable.Orders, OrdersSelect, responseStream, context,
            reader => Batches<OrderBatch, OrderRow>(reader, OrdersMessages.BatchRows, b => b.Rows, OrdersMessages.Fill, context.CancellationToken));

    /// <summary>
    /// A described table (a team's own, read from the catalog) in its generated messages (<see cref="DescribedMessageClasses"/>),
    /// read by the guarded query the other typed fetches read it by: the call <see cref="DescribedCallMethod"/> adds.
    /// </summary>
    public async Task Described(DescribedRequest request, IServerStreamWriter<IMessage> responseStream, ServerCallContext context)
    {
        SyncTable table;
        IDescribedMessages messages;
        try
        {
            table = await tables.FindAsync(request.Table, context.CancellationToken);
            messages = described.Of(table);
        }
        catch (Exception ex) when (ex is TableCatalogException or InvalidOperationException)
        {
            if (RunsApi.RunOf(context.GetHttpContext().Request) is { } run)
            {
                await runs.FailAsync(run, $"GrpcStream cannot serve {request.Table}: {ex.Message}");
            }

            throw new RpcException(new Status(ex is TableCatalogException ? StatusCode.NotFound : StatusCode.FailedPrecondition, ex.Message));
        }

        await ServeAsync(table, messages.Query, responseStream, context, reader => messages.BatchesAsync(reader, context.CancellationToken));
    }

    /// <summary>Streams the batches <paramref name="batches"/> reads from <paramref name="select"/>, in the run's snapshot.</summary>
    private async Task ServeAsync<TBatch>(SyncTable table, string select, IServerStreamWriter<TBatch> responseStream, ServerCallContext context,
        Func<NpgsqlDataReader, IAsyncEnumerable<(TBatch Batch, int Rows)>> batches)
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
            await using var command = new NpgsqlCommand(select, connection, transaction);
            await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SequentialAccess, context.CancellationToken);
            await foreach (var (batch, rows) in batches(reader))
            {
                await responseStream.WriteAsync(batch, context.CancellationToken);
                sent += rows;
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

            throw Named(ex, table, sent);
        }
    }

    /// <summary>
    /// The rows in messages of up to <paramref name="batchRows"/>. One message and its rows are reused: each is
    /// serialised before the write it is handed to completes.
    /// </summary>
    private static async IAsyncEnumerable<(TBatch Batch, int Rows)> Batches<TBatch, TRow>(NpgsqlDataReader reader, int batchRows,
        Func<TBatch, RepeatedField<TRow>> rowsOf, Action<TRow, DbDataReader> fill, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken ct)
        where TBatch : IMessage, new()
        where TRow : new()
    {
        var batch = new TBatch();
        var batchRowsField = rowsOf(batch);
        var rows = Enumerable.Range(0, batchRows).Select(_ => new TRow()).ToArray();
        while (await reader.ReadAsync(ct))
        {
            var row = rows[batchRowsField.Count];
            fill(row, reader);
            batchRowsField.Add(row);
            if (batchRowsField.Count == batchRows)
            {
                yield return (batch, batchRows);
                batchRowsField.Clear();
            }
        }

        if (batchRowsField.Count > 0)
        {
            yield return (batch, batchRowsField.Count);
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
    private RpcException Named(Exception ex, SyncTable table, long sent)
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
            $"reading {table.Name} failed after {sent:N0} rows were sent: {Chain(ex)}"));
    }

    /// <summary>The exception and, when another, what it wraps at the bottom: "NpgsqlException: … ← EndOfStreamException: …".</summary>
    private static string Chain(Exception ex) =>
        ex.GetBaseException() is { } inner && inner != ex ? $"{ex.GetType().Name}: {ex.Message} ← {inner.GetType().Name}: {inner.Message}" : $"{ex.GetType().Name}: {ex.Message}";
}
