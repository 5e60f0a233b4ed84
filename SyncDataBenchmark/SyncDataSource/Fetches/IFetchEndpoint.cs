using SyncData.Shared;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>The server half of one fetch approach: its handler, written once over the row type of a table.</summary>
public interface IFetchEndpoint
{
    /// <summary>
    /// The GET handler serving <paramref name="table"/>'s rows, mapped by <see cref="FetchEndpoints"/> at the route its
    /// fetch declares, under the table's name (SourceRoutes.InTable).
    /// </summary>
    Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class;

    /// <summary>
    /// The GET handler serving a described table (one the lab has no classes for, read from the catalog), mapped at the
    /// fetch's route under any table's name (SourceRoutes.AnyTable) through <see cref="DescribedTableEndpoints"/>; null
    /// when the fetch carries none over a route (GrpcStream serves one through its own call; the change fetches none).
    /// </summary>
    Delegate? DescribedHandler() => null;
}

/// <summary>The server half of <typeparamref name="TFetch"/>: the fetch it serves, whose facts its class declares once (SyncData.Shared/Fetches).</summary>
public interface IFetchEndpoint<TFetch> : IFetchEndpoint
    where TFetch : IFetch;
