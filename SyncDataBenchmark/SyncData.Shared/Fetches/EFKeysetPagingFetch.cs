namespace SyncData.Shared.Fetches;

/// <summary>
/// EFKeysetPaging: pages of the rows after a given id, ordered by id; the route is the one the original URLs used. It
/// carries a described table whose key is one column of bigint or uuid through entity classes both services generate.
/// </summary>
[Approach(ApproachKind.Fetch, "EFKeysetPaging", Pages = true, Traits = ApproachTraits.GeneratedRows | ApproachTraits.OneColumnKeyed, Route = "users/keyset")]
public sealed class EFKeysetPagingFetch : IFetch;
