namespace SyncData.Shared.Fetches;

/// <summary>
/// GrpcStream: one server-streaming gRPC call over HTTP/2 whose messages are batches of typed protobuf rows
/// (SyncData.Grpc/grpc_stream.proto). Its route is the plain GET that tells a caller how to make the call; the call
/// itself is POST /syncdata.grpcstream.GrpcStreamSource/Users. It carries a described table in messages both services
/// generate from their catalogs (a .proto compiled by protoc), through the call GrpcStreamSource/Described.
/// </summary>
[Approach(ApproachKind.Fetch, "GrpcStream", Traits = ApproachTraits.GeneratedRows)]
public sealed class GrpcStreamFetch : IFetch;
