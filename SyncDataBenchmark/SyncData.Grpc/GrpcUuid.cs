using System.Buffers.Binary;

namespace SyncData.Grpc;

/// <summary>A uuid on GrpcStream's wire: its 16 bytes in PostgreSQL's (big-endian) order as two fixed64, no allocation per value.</summary>
public static class GrpcUuid
{
    public static (ulong High, ulong Low) Halves(Guid value)
    {
        Span<byte> id = stackalloc byte[16];
        value.TryWriteBytes(id, bigEndian: true, out _);
        return (BinaryPrimitives.ReadUInt64BigEndian(id), BinaryPrimitives.ReadUInt64BigEndian(id[8..]));
    }

    public static Guid FromHalves(ulong high, ulong low)
    {
        Span<byte> id = stackalloc byte[16];
        BinaryPrimitives.WriteUInt64BigEndian(id, high);
        BinaryPrimitives.WriteUInt64BigEndian(id[8..], low);
        return new Guid(id, bigEndian: true);
    }
}
