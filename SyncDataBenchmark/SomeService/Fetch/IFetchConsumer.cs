using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// The consumer half of a fetch approach: pulls every source row of a table over HTTP, incrementally, as requests of
/// the run it is handed. Each is one class naming the fetch it reads (<see cref="IFetchConsumer{TFetch}"/>; its server
/// half is in SyncDataSource/Fetches), written once over the table's row type (<see cref="RowTable{TRow}"/>).
/// </summary>
public interface IFetchConsumer
{
    IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, CancellationToken ct)
        where TRow : class;
}

/// <summary>The consumer half of <typeparamref name="TFetch"/>: the fetch it reads, whose facts its class declares once (SyncData.Shared/Fetches).</summary>
public interface IFetchConsumer<TFetch> : IFetchConsumer
    where TFetch : IFetch;
