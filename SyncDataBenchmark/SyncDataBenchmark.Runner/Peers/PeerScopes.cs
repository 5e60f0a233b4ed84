namespace SyncDataBenchmark.Runner;

/// <summary>What a peer's <see cref="PeerRun.DurationMs"/> covers, so that only like is compared with like.</summary>
public static class PeerScopes
{
    /// <summary>
    /// The target's own clock (clock_timestamp()) right before its truncate and right after its commit: process
    /// start and connection set-up excluded, as SomeService's durationMs (first target statement to commit).
    /// </summary>
    public const string TargetStatements = "target-statements";

    /// <summary>The whole command's wall time, process starts and connections included (tools that allow no other).</summary>
    public const string WholeCommand = "whole-command";
}
