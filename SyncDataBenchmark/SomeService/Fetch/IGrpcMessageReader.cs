using Google.Protobuf;
using Grpc.Core;

namespace SomeService.Fetch;

/// <summary>How GrpcStream's consumer awaits each message of a call, whatever the table's message type (idle timeout, named failures, counted bytes).</summary>
public interface IGrpcMessageReader
{
    /// <summary>The next message, or null once the source ended the call with OK.</summary>
    Task<TMessage?> NextAsync<TMessage>(IAsyncStreamReader<TMessage> messages)
        where TMessage : class, IMessage;
}
