using Microsoft.AspNetCore.Http.HttpResults;
using SyncData.Grpc;
using SyncData.Shared.Fetches;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>
/// GrpcStream at its declared route: the fetch is a gRPC call (<see cref="GrpcStreamService"/>, mapped by
/// <see cref="GrpcStreamSetup"/>), so a plain GET there is told how to make it instead of meeting a 404.
/// </summary>
public sealed class GrpcStreamEndpoint : IFetchEndpoint<GrpcStreamFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        () => HowToCall(table.Table.Name);

    /// <summary>The table's method: the table's name capitalised ("orders" → Orders).</summary>
    internal static ProblemHttpResult HowToCall(string table) =>
        TypedResults.Problem(
            $"GrpcStream is a server-streaming gRPC call: POST /{GrpcStreamSource.Descriptor.FullName}/{char.ToUpperInvariant(table[0])}{table[1..]} over HTTP/2 " +
            "(cleartext: prior knowledge), naming the run in the x-sync-run header; its contract is SyncData.Grpc/grpc_stream.proto.",
            statusCode: StatusCodes.Status400BadRequest, title: "This fetch is a gRPC call, not a GET");
}
