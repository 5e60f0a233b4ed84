namespace SyncData.Shared.Fetches;

/// <summary>EFOffsetPaging: pages by offset and limit, ordered by id; the route is the one the original URLs used.</summary>
[Approach(ApproachKind.Fetch, "EFOffsetPaging", Pages = true, Route = "users/offset")]
public sealed class EFOffsetPagingFetch : IFetch;
