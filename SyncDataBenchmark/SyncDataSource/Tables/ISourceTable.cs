using SyncData.Postgres;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>
/// A table as SyncDataSource serves it, whatever its row type: what the fetch endpoints are mapped for, once per table
/// (<see cref="FetchEndpoints"/>). The row type's part is <see cref="SourceTable{TRow}"/>.
/// </summary>
public interface ISourceTable
{
    SyncTable Table { get; }

    /// <summary>The handler <paramref name="endpoint"/> serves this table's rows with.</summary>
    Delegate HandlerOf(IFetchEndpoint endpoint);

    /// <summary>Every table the source serves: the one list to add a table's row mapping to.</summary>
    static IReadOnlyList<ISourceTable> All { get; } = [new UsersSourceTable(), new OrdersSourceTable()];
}
