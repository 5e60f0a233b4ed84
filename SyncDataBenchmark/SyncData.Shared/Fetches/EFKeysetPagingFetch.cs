namespace SyncData.Shared.Fetches;

/// <summary>EFKeysetPaging: pages of the rows after a given id, ordered by id; the route is the one the original URLs used.</summary>
[Approach(ApproachKind.Fetch, "EFKeysetPaging", Pages = true, Route = "users/keyset")]
public sealed class EFKeysetPagingFetch : IFetch;
