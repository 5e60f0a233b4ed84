using Google.Protobuf;
using Grpc.Core;

namespace SyncData.Grpc.Described;

/// <summary>
/// GrpcStream's call for a described table: a server-streaming method of the GrpcStreamSource service, its request
/// naming the table (<see cref="DescribedRequest"/>, in grpc_stream.proto) and its responses the table's generated
/// <c>Batch</c> messages. grpc_stream.proto cannot declare it, as the response's type is generated per table, so it is
/// declared here, with the marshallers protoc's gRPC plugin writes for its own methods: on the wire it is what an rpc
/// of that table's own .proto would be.
/// </summary>
public static class DescribedCall
{
    public const string MethodName = "Described";

    private static readonly Marshaller<DescribedRequest> Requests = Marshaller(DescribedRequest.Parser);

    /// <summary>The method as the client calls it, its responses parsed as <typeparamref name="TBatch"/>.</summary>
    public static Method<DescribedRequest, TBatch> For<TBatch>(MessageParser<TBatch> parser)
        where TBatch : class, IMessage<TBatch>, IBufferMessage =>
        new(MethodType.ServerStreaming, GrpcStreamSource.Descriptor.FullName, MethodName, Requests, Marshaller(parser));

    /// <summary>The method as the server serves it: whatever table's batches, each written as its own message.</summary>
    public static Method<DescribedRequest, IMessage> Served { get; } = new(MethodType.ServerStreaming, GrpcStreamSource.Descriptor.FullName, MethodName, Requests,
        Marshallers.Create<IMessage>(Serialize, _ => throw new NotSupportedException("The source only writes a described table's batches.")));

    private static Marshaller<T> Marshaller<T>(MessageParser<T> parser)
        where T : IMessage<T>, IBufferMessage =>
        Marshallers.Create<T>((message, context) => Serialize(message, context), context => parser.ParseFrom(context.PayloadAsReadOnlySequence()));

    private static void Serialize(IMessage message, SerializationContext context)
    {
        context.SetPayloadLength(message.CalculateSize());
        message.WriteTo(context.GetBufferWriter());
        context.Complete();
    }
}
