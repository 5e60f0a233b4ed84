using System.Text.Json.Serialization;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>One run of an external tool moving the same table, verified the same way.</summary>
public sealed record PeerRun : MeasuredRun
{
    public required string Peer { get; init; }
    public required string Status { get; init; }
    /// <summary>
    /// The peer's time at <see cref="Scope"/>: "target-statements" is the target's own clock from right before its
    /// truncate to right after its commit (SomeService's durationMs covers the same); "whole-command" is
    /// <see cref="WallMs"/>. The verification query is excluded either way.
    /// </summary>
    public double? DurationMs { get; init; }
    /// <summary>Which time <see cref="DurationMs"/> is: "target-statements" or "whole-command" (PeerScopes).</summary>
    public required string Scope { get; init; }
    /// <summary>Wall time of the whole timed command (process starts and connections included); set-up and tear-down excluded.</summary>
    public double? WallMs { get; init; }
    public long Rows { get; init; }
    /// <summary>Target count and checksum equal the source's, read directly after the command.</summary>
    public bool Verified { get; init; }
    public TableChecksum? Target { get; init; }
    public int? ExitCode { get; init; }

    /// <summary>A peer runs uncompressed; its name is its definition's (a record's unknown peer keeps its key).</summary>
    [JsonIgnore]
    public override CaseIdentity Identity => new(Peer, PeerDefinition.Find(Peer)?.Name ?? Peer, null, BodyCompression.None, Table, Changed);

    public override bool Ok => Status == RunStatus.Succeeded && Verified;
}
