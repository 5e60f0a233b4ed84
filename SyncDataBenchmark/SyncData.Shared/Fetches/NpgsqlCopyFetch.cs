namespace SyncData.Shared.Fetches;

/// <summary>NpgsqlCopy: one request whose body is PostgreSQL binary COPY; the route is the one the original URLs used.</summary>
[Approach(ApproachKind.Fetch, "NpgsqlCopy", CopyBytes = true, Route = "users/copy")]
public sealed class NpgsqlCopyFetch : IFetch;
