using Grpc.AspNetCore.Server.Model;
using SyncData.Grpc.Described;

namespace SyncDataSource.Fetches;

/// <summary>
/// Adds GrpcStream's call for a described table (<see cref="DescribedCall"/>) to the GrpcStreamSource service: declared
/// in code, not in grpc_stream.proto, as each table's response message is generated from its catalog.
/// </summary>
public sealed class DescribedCallMethod : IServiceMethodProvider<GrpcStreamService>
{
    public void OnServiceMethodDiscovery(ServiceMethodProviderContext<GrpcStreamService> context) =>
        context.AddServerStreamingMethod(DescribedCall.Served, [], (service, request, stream, call) => service.Described(request, stream, call));
}
