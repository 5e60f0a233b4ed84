using System.IO.Compression;
using Grpc.Net.Compression;
using SyncData.Shared;

namespace SyncData.Grpc;

/// <summary>
/// The lab's compressions (<see cref="BodyCompression"/>) as gRPC message encodings: HTTP's response compression does
/// not apply to gRPC (it compresses each message itself, flagged per message, named by grpc-encoding). A run asks for
/// its encoding by sending its request message in it (<see cref="RequestHeader"/>); the source answers in the same.
/// </summary>
public static class GrpcCompression
{
    /// <summary>Metadata a call (client) or a response (server) sets to choose its messages' encoding; never sent on the wire.</summary>
    public const string RequestHeader = "grpc-internal-encoding-request";

    /// <summary>The header naming the encoding a side's messages are in.</summary>
    public const string EncodingHeader = "grpc-encoding";

    /// <summary>The gRPC encoding of a <see cref="BodyCompression"/> name; null for none (identity).</summary>
    public static string? Encoding(string compression) => compression switch
    {
        BodyCompression.Gzip => "gzip",
        BodyCompression.Brotli => "br",
        _ => null,
    };

    /// <summary>
    /// Both ends' providers, at <see cref="CompressionLevel.Fastest"/> like the lab's HTTP compression
    /// (SyncDataSource's BodyCompressionSetup), so the codings compare like for like.
    /// </summary>
    public static List<ICompressionProvider> Providers() =>
        [new GzipCompressionProvider(CompressionLevel.Fastest), new BrotliCompressionProvider(CompressionLevel.Fastest)];
}
