namespace SyncData.Shared.Fetches;

/// <summary>
/// EFOffsetPaging: pages by offset and limit, ordered by id; the route is the one the original URLs used. It carries a described
/// table with a primary key (its pages in key order) through entity classes both services generate from their catalogs.
/// </summary>
[Approach(ApproachKind.Fetch, "EFOffsetPaging", Pages = true, Traits = ApproachTraits.GeneratedRows | ApproachTraits.Keyed, Route = "users/offset")]
public sealed class EFOffsetPagingFetch : IFetch;
