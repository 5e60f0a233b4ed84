namespace SyncData.Shared;

/// <summary>One approach as its class declares it (<see cref="ApproachAttribute"/>), route resolved.</summary>
public sealed record ApproachInfo(ApproachKind Kind, string Name, bool CopyBytes, bool Pages, bool Batches, string Route, bool Changes = false, bool Merges = false);
