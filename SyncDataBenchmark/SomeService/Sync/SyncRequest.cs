namespace SomeService.Sync;

/// <summary>One run's parameters, validated; <paramref name="Compression"/> is a <see cref="SyncData.Shared.BodyCompression"/> name.</summary>
public sealed record SyncRequest(SyncData.Shared.FetchApproach Fetch, SyncData.Shared.InsertApproach Insert, int PageSize, int BatchSize,
    string Compression = SyncData.Shared.BodyCompression.None);
