using Microsoft.AspNetCore.Http.HttpResults;
using SyncData.Grpc;
using SyncData.Shared.Fetches;

namespace SyncDataSource.Users;

/// <summary>
/// GrpcStream at its declared route: the fetch is a gRPC call (<see cref="GrpcStreamService"/>, mapped by
/// <see cref="GrpcStreamSetup"/>), so a plain GET there is told how to make it instead of meeting a 404.
/// </summary>
public sealed class GrpcStreamEndpoint : IFetchEndpoint<GrpcStreamFetch>
{
    public Delegate Handler => HowToCall;

    internal static ProblemHttpResult HowToCall() =>
        TypedResults.Problem(
            $"GrpcStream is a server-streaming gRPC call: POST /{GrpcStreamSource.Descriptor.FullName}/{GrpcStreamSource.Descriptor.Methods[0].Name} over HTTP/2 " +
            "(cleartext: prior knowledge), naming the run in the x-sync-run header; its contract is SyncData.Grpc/grpc_stream.proto.",
            statusCode: StatusCodes.Status400BadRequest, title: "This fetch is a gRPC call, not a GET");
}
