using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// The consumer half of a fetch approach: pulls every source row over HTTP, incrementally, as requests of the run it is
/// handed. Each is one class naming the fetch it reads (<see cref="IFetchConsumer{TFetch}"/>; its server half is in
/// SyncDataSource/Users).
/// </summary>
public interface IFetchConsumer
{
    IAsyncEnumerable<User> ReadAsync(SourceRun run, CancellationToken ct);
}

/// <summary>The consumer half of <typeparamref name="TFetch"/>: the fetch it reads, whose facts its class declares once (SyncData.Shared/Fetches).</summary>
public interface IFetchConsumer<TFetch> : IFetchConsumer
    where TFetch : IFetch;
