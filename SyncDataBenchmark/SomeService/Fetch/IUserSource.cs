using SyncData.Shared;
using SomeService.Sync;

namespace SomeService.Fetch;

/// <summary>The consumer half of a fetch approach: pulls every source row over HTTP, incrementally.</summary>
public interface IUserSource
{
    IAsyncEnumerable<User> ReadAsync(SyncRequest request, CancellationToken ct);
}

/// <summary>A source whose wire format is already PostgreSQL binary COPY, so its bytes can be relayed unparsed.</summary>
public interface IRawCopySource
{
    Task<Stream> OpenCopyStreamAsync(CancellationToken ct);
}

/// <summary>The source stopped, stalled or sent something malformed; the message says which and where.</summary>
public sealed class SourceStreamException(string message, Exception? inner = null) : Exception(message, inner);
