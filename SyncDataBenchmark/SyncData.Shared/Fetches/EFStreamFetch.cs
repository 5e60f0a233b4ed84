namespace SyncData.Shared.Fetches;

/// <summary>EFStream: one request, the table as one JSON array streamed as EF reads it; the route is the one the original URLs used.</summary>
[Approach(ApproachKind.Fetch, "EFStream", Route = "users/stream")]
public sealed class EFStreamFetch : IFetch;
