namespace SyncData.Shared.Fetches;

/// <summary>
/// EFStream: one request, the table as one JSON array streamed as EF reads it; the route is the one the original URLs
/// used. It carries a described table through entity classes both services generate from their catalogs.
/// </summary>
[Approach(ApproachKind.Fetch, "EFStream", Route = "users/stream", Traits = ApproachTraits.GeneratedRows)]
public sealed class EFStreamFetch : IFetch;
