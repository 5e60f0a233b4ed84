namespace SyncData.Shared.Fetches;

/// <summary>
/// EFKeysetPaging: pages of the rows after a given id, ordered by id; the route is the one the original URLs used. It
/// carries a described table with a primary key of any columns through entity classes both services generate, paging
/// by the row comparison of the whole key.
/// </summary>
[Approach(ApproachKind.Fetch, "EFKeysetPaging", Pages = true, Traits = ApproachTraits.GeneratedRows | ApproachTraits.Keyed, Route = "users/keyset")]
public sealed class EFKeysetPagingFetch : IFetch;
