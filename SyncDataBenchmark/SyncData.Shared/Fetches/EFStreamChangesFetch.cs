namespace SyncData.Shared.Fetches;

/// <summary>
/// EFStreamChanges: EFStream of only the rows changed since the consumer's watermark (<see cref="SourceRoutes.Since"/>):
/// one JSON array of the rows changed_&lt;table&gt;(since) returns, inserted or updated; the deleted keys come from
/// <see cref="SourceRoutes.Deleted"/>.
/// </summary>
[Approach(ApproachKind.Fetch, "EFStreamChanges", Route = "users/changes/stream", Changes = true)]
public sealed class EFStreamChangesFetch : IFetch;
