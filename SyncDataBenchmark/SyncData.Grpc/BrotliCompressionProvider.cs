using System.IO.Compression;
using Grpc.Net.Compression;

namespace SyncData.Grpc;

/// <summary>
/// Brotli as a gRPC message encoding ("br", the HTTP token): gRPC names only gzip and deflate, and lets both ends agree
/// on others through grpc-accept-encoding; both services register this one, so the lab's brotli runs apply to
/// GrpcStream too (docs/approaches.md, "GrpcStream").
/// </summary>
public sealed class BrotliCompressionProvider(CompressionLevel level) : ICompressionProvider
{
    public string EncodingName => "br";

    public Stream CreateCompressionStream(Stream stream, CompressionLevel? compressionLevel) =>
        new BrotliStream(stream, compressionLevel ?? level, leaveOpen: true);

    public Stream CreateDecompressionStream(Stream stream) => new BrotliStream(stream, CompressionMode.Decompress, leaveOpen: true);
}
