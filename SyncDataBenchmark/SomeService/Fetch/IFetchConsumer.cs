using SyncData.Shared;
using SomeService.Sync;

namespace SomeService.Fetch;

/// <summary>
/// The consumer half of a fetch approach: pulls every source row over HTTP, incrementally. Each approach is one
/// class that declares its own name (its server half is in SyncDataSource/Users).
/// </summary>
public interface IFetchConsumer
{
    IAsyncEnumerable<User> ReadAsync(SyncRequest request, CancellationToken ct);
}

/// <summary>A consumer whose fetch already speaks PostgreSQL binary COPY on the wire, so its bytes can be relayed unparsed.</summary>
public interface IBinaryCopyConsumer : IFetchConsumer
{
    Task<Stream> OpenCopyStreamAsync(CancellationToken ct);
}

/// <summary>The source stopped, stalled or sent something malformed; the message says which and where.</summary>
public sealed class SourceStreamException(string message, Exception? inner = null) : Exception(message, inner);
