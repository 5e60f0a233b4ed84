using System.Text.Json;
using System.Text.Json.Serialization;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.json: everything the runner measured and where. It holds the runs only; every table, the CSV and the
/// pictures are derived from them at render time (<see cref="ReportTables"/>), so a report can always be made again
/// from the record (--report-from).
/// </summary>
public sealed record BenchResults
{
    /// <summary>False while the runner is still going (the file is rewritten after every run) or when it was stopped.</summary>
    public required bool Complete { get; init; }
    /// <summary>Every run (warm-ups included) succeeded and verified, and nothing else went wrong.</summary>
    public required bool Passed { get; init; }
    public required BenchEnvironment Environment { get; init; }
    public required BenchParameters Parameters { get; init; }
    public required IReadOnlyList<CombinationRun> Runs { get; init; }
    public required IReadOnlyList<PeerRun> Peers { get; init; }
    [JsonIgnore]
    public IEnumerable<MeasuredRun> AllRuns => Runs.Concat<MeasuredRun>(Peers);
    /// <summary>Failures outside any single run (charts, service restarts), in words.</summary>
    public required IReadOnlyList<string> Problems { get; init; }
    /// <summary>Cases a sweep did not run at some size: predicted past --max-run-seconds.</summary>
    public required IReadOnlyList<SkippedCase> Skipped { get; init; }
    /// <summary>--changed: change_&lt;table&gt;(share) timed with and without the change-log triggers; null (absent) without --changed.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<TriggerCost>? TriggerCosts { get; init; }
    /// <summary>--follow: the runs of the follow matrix (table × write rate × mechanism); null (absent) without --follow.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<FollowRun>? Follow { get; init; }
    /// <summary>The session's budget and what its plan decided; null (absent) in records from before it.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public Budget.BudgetRecord? Budget { get; init; }
    /// <summary>Peers the server cannot run (PeerDefinition.Precondition), with why and what to change.</summary>
    public required IReadOnlyList<SkippedPeer> SkippedPeers { get; init; }
}

// Not indented: results.json is committed after every full run, and indentation tripled its size.
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, UseStringEnumConverter = true, WriteIndented = false,
    DefaultIgnoreCondition = JsonIgnoreCondition.Never)]
[JsonSerializable(typeof(BenchResults))]
[JsonSerializable(typeof(ReportTables))]
internal sealed partial class BenchJsonContext : JsonSerializerContext;
