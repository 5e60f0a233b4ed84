using SomeService.Tables;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>
/// NpgsqlReplication's reading half: the source's stream of <see cref="ChangeFrame"/>s, one JSON object a line. A run
/// never uses it (the catalogue pairs the fetch with no writer: <see cref="ApproachAttribute.Follows"/>); the follower
/// (SomeService/Follow) reads the stream through ReplicationStream.
/// </summary>
public sealed class NpgsqlReplicationConsumer : IFetchConsumer<NpgsqlReplicationFetch>
{
    public IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, CancellationToken ct)
        where TRow : class =>
        throw new InvalidOperationException(ApproachRegistry.Catalog.Incompatibility(run.Request.Fetch, run.Request.Insert));
}
