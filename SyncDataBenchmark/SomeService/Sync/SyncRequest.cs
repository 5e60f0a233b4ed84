using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>One run's parameters, validated; <paramref name="Compression"/> is a <see cref="BodyCompression"/> name.</summary>
public sealed record SyncRequest(FetchApproach Fetch, InsertApproach Insert, int PageSize, int BatchSize,
    string Compression = BodyCompression.None)
{
    /// <summary>The table the run moves; users unless the trigger named another.</summary>
    public SyncTable Table { get; init; } = SyncTable.Users;
}
