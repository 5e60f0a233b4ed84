using SyncData.Shared;
using SomeService.Sync;

namespace SomeService.Fetch;

/// <summary>
/// The consumer half of a fetch approach: pulls every source row over HTTP, incrementally. Each approach is one
/// class that declares its own name (its server half is in SyncDataSource/Users).
/// </summary>
public interface IUserSource
{
    IAsyncEnumerable<User> ReadAsync(SyncRequest request, CancellationToken ct);
}

/// <summary>A source whose wire format is already PostgreSQL binary COPY, so its bytes can be relayed unparsed.</summary>
public interface IBinaryCopySource : IUserSource
{
    Task<Stream> OpenCopyStreamAsync(CancellationToken ct);
}

/// <summary>The source stopped, stalled or sent something malformed; the message says which and where.</summary>
public sealed class SourceStreamException(string message, Exception? inner = null) : Exception(message, inner);
