namespace SyncDataBenchmark.Runner.Follow;

/// <summary>What a follow mechanism reaches: the lab's two databases, SomeService, and the follower's batch (--batch-size, or SomeService's default).</summary>
public sealed record FollowContext(string SourceDb, string TargetDb, HttpClient SomeService, int? Batch);
