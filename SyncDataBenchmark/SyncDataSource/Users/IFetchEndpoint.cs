using SyncData.Shared;

namespace SyncDataSource.Users;

/// <summary>The server half of one fetch approach: its handler.</summary>
public interface IFetchEndpoint
{
    /// <summary>The GET handler, mapped by <see cref="FetchEndpoints"/> at the route its fetch declares.</summary>
    Delegate Handler { get; }
}

/// <summary>The server half of <typeparamref name="TFetch"/>: the fetch it serves, whose facts its class declares once (SyncData.Shared/Fetches).</summary>
public interface IFetchEndpoint<TFetch> : IFetchEndpoint
    where TFetch : IFetch;
