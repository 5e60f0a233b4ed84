namespace SyncData.Shared;

/// <summary>One approach as SomeService serves it at GET /approaches.</summary>
public sealed record ApproachDescription(string Kind, string Name, bool CopyBytes, bool Pages, bool Batches, string? Route);
