using System.Text.Json.Serialization;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>One request to SomeService's /sync?wait=true, and what it answered.</summary>
public sealed record CombinationRun
{
    public required int Number { get; init; }
    public required string Case { get; init; }
    public required string Fetch { get; init; }
    public required string Insert { get; init; }
    /// <summary>The content coding the run asked for (--compression); the result's WireBytes and BodyBytes show what it did.</summary>
    public string Compression { get; init; } = BodyCompression.None;
    /// <summary>0 is a warm-up round (there may be several, --warmup); 1..repeat are timed.</summary>
    public required int Round { get; init; }
    public required bool Warmup { get; init; }
    /// <summary>Rows in the source when this run ran (the sweep's size).</summary>
    public long? SourceRows { get; init; }
    /// <summary>The runtime profile the runner started both services with ("external" for services it did not start).</summary>
    public string Profile { get; init; } = SyncData.Harness.RuntimeProfiles.DefaultName;
    /// <summary>The link between the two hosts this run crossed (--link).</summary>
    public string Link { get; init; } = NetworkLink.LoopbackName;
    /// <summary>What crossed a shaped link during the run; null on loopback.</summary>
    public LinkTraffic? Traffic { get; init; }
    /// <summary>Seen from the runner: the HTTP request's whole duration (includes the in-transaction verification).</summary>
    public required double WallMs { get; init; }
    public int? HttpStatus { get; init; }
    /// <summary>Why there is no usable result (transport, HTTP status, or the run's own error).</summary>
    public string? Error { get; init; }
    /// <summary>
    /// The RunResult as SomeService returned it; in results.json, samples are kept only for the run each picture
    /// shows (thinned to a few hundred points), so the file stays small.
    /// </summary>
    public RunResult? Result { get; init; }
    /// <summary>The runner's own check after the run: the target read directly equals the source (count and checksum).</summary>
    public bool? RunnerVerified { get; init; }
    /// <summary>The target's count and checksum as the runner read them after the run.</summary>
    public TableChecksum? RunnerTarget { get; init; }

    /// <summary>Both verdicts must hold: the service's (inside its transaction) and the runner's (after the commit).</summary>
    public bool Ok => Result is { Status: RunStatus.Succeeded, Verified: true } && RunnerVerified == true;

    /// <summary>"Fetch × Insert", with " [gzip]" when compressed (Combination.Label, from the names the record holds).</summary>
    [JsonIgnore]
    public string Label => $"{Fetch} × {Insert}" + RunDimension.LabelSuffix(this);
}
