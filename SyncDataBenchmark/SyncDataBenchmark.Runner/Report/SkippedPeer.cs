namespace SyncDataBenchmark.Runner.Report;

/// <summary>A peer left out of the session because the server cannot run it: why, and what to change.</summary>
public sealed record SkippedPeer(string Peer, string Title, string Reason);
