using System.Text.Json.Serialization;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>One request to SomeService's /sync?wait=true, and what it answered.</summary>
public sealed record CombinationRun : MeasuredRun
{
    public required int Number { get; init; }
    public required string Case { get; init; }
    public required string Fetch { get; init; }
    public required string Insert { get; init; }
    /// <summary>The content coding the run asked for (--compression); the result's WireBytes and BodyBytes show what it did.</summary>
    public string Compression { get; init; } = BodyCompression.None;
    /// <summary>The runtime profile the runner started both services with ("external" for services it did not start).</summary>
    public string Profile { get; init; } = SyncData.Harness.RuntimeProfiles.DefaultName;
    /// <summary>Seen from the runner: the HTTP request's whole duration (includes the in-transaction verification).</summary>
    public required double WallMs { get; init; }
    public int? HttpStatus { get; init; }
    /// <summary>
    /// The RunResult as SomeService returned it; in results.json, samples are kept only for the run each picture
    /// shows (thinned to a few hundred points), so the file stays small.
    /// </summary>
    public RunResult? Result { get; init; }
    /// <summary>The runner's own check after the run: the target read directly equals the source (count and checksum).</summary>
    public bool? RunnerVerified { get; init; }
    /// <summary>The target's count and checksum as the runner read them after the run.</summary>
    public TableChecksum? RunnerTarget { get; init; }

    /// <summary>
    /// A timed run in which SomeService's JIT compiled for longer than --jit-threshold-ms (BenchParameters.JitThresholdMs):
    /// the runtime had not settled. True or absent.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public bool? Unsettled { get; init; }

    /// <summary>
    /// This run flagged <see cref="Unsettled"/> when it is timed and SomeService compiled longer than <paramref name="thresholdMs"/>
    /// and than <see cref="UnsettledShare"/> of the run in it: 50 ms of compiling cannot move a two-minute run's median.
    /// </summary>
    public CombinationRun Flagged(double thresholdMs) =>
        !Warmup && Result?.SomeService?.JitTimeMs is { } jit && jit > thresholdMs && jit > UnsettledShare * (Result.DurationMs ?? 0) ? this with { Unsettled = true } : this;

    /// <summary>The share of a run's time its compiling must also pass to flag it (<see cref="Flagged"/>).</summary>
    public const double UnsettledShare = 0.01;

    /// <summary>A verified timed run that did not still compile: what the statistics are made of (flagged runs are left out and replaced).</summary>
    [JsonIgnore]
    public bool Counts => Ok && !Warmup && Unsettled != true;

    /// <summary>Both verdicts must hold: the service's (inside its transaction) and the runner's (after the commit).</summary>
    public override bool Ok => Result is { Status: RunStatus.Succeeded, Verified: true } && RunnerVerified == true;

    [JsonIgnore]
    public override CaseIdentity Identity => CaseIdentity.OfCombination(Number, Fetch, Insert, Compression, Table, Changed);

    /// <summary>"Fetch × Insert", with " [gzip]" when compressed (<see cref="CaseIdentity.Label"/>).</summary>
    [JsonIgnore]
    public string Label => Identity.Label;
}
