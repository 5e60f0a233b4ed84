using SyncData.Grpc;
using SyncDataSource.Fetches;

namespace SyncDataSource;

/// <summary>
/// The gRPC server for GrpcStream, on the service's one address: its HTTP/2 connections are recognised by their
/// preface (<see cref="Http2PriorKnowledge"/>), so --link, the harness and every proxy need no second port.
/// </summary>
public static class GrpcStreamSetup
{
    public static WebApplicationBuilder AddGrpcStream(this WebApplicationBuilder builder)
    {
        Http2PriorKnowledge.Enable(builder.WebHost, builder.Configuration);
        builder.Services.AddGrpc(o =>
        {
            o.CompressionProviders = GrpcCompression.Providers();
            // The lab's messages are ~64 KiB (UsersMessages.BatchRows); a longer row batch must still go out.
            o.MaxSendMessageSize = null;
            // Without this gRPC maps a catch-all route for unknown services, and a wrong method on any other route
            // (a PUT of users/checksum) would answer 404 instead of 405.
            o.IgnoreUnknownServices = true;
        });
        // The described tables' call, whose response messages are generated per table (DescribedCallMethod).
        builder.Services.AddSingleton<Grpc.AspNetCore.Server.Model.IServiceMethodProvider<GrpcStreamService>, DescribedCallMethod>();
        builder.Services.AddSingleton<Tables.DescribedMessageClasses>();
        return builder;
    }

    public static IEndpointRouteBuilder MapGrpcStream(this IEndpointRouteBuilder app)
    {
        app.MapGrpcService<GrpcStreamService>();
        return app;
    }
}
