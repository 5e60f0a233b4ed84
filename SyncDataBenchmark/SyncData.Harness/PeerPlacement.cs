namespace SyncData.Harness;

/// <summary>
/// Where a peer's scripts run and what $SRC and $TGT point at: on loopback, here and the runner's own connection
/// strings; on a shaped link, inside the target host's namespace with the source at its link address (the peer
/// crosses the same link SomeService does) and the target over its host's loopback.
/// </summary>
public sealed record PeerPlacement(string? Namespace, string SourceConnection, string TargetConnection);
