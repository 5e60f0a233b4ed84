namespace SyncData.Shared;

/// <summary>
/// A fetch approach, declared once for both halves: a class in SyncData.Shared/Fetches carrying
/// <see cref="ApproachAttribute"/> with its facts (name, route, wire format, pages). SyncDataSource's endpoint and
/// SomeService's consumer each name the class they serve or read (IFetchEndpoint&lt;TFetch&gt;,
/// IFetchConsumer&lt;TFetch&gt;); every side finds them by enumeration (<see cref="ApproachCatalog.DeclaredFetches"/>).
/// </summary>
public interface IFetch;
