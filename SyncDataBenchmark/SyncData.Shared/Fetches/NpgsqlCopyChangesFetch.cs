namespace SyncData.Shared.Fetches;

/// <summary>
/// NpgsqlCopyChanges: NpgsqlCopy of only the rows changed since the consumer's watermark (<see cref="SourceRoutes.Since"/>):
/// binary COPY of changed_&lt;table&gt;(since) in the table's column order, so every COPY reader and relay takes it
/// unchanged; the deleted keys come from <see cref="SourceRoutes.Deleted"/>.
/// </summary>
[Approach(ApproachKind.Fetch, "NpgsqlCopyChanges", CopyBytes = true, Route = "users/changes/copy", Changes = true)]
public sealed class NpgsqlCopyChangesFetch : IFetch;
