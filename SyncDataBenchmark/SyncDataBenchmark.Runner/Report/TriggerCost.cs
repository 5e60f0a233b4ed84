using System.Text.Json.Serialization;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// What change tracking costs the source's writers (--changed): change_&lt;table&gt;(share, seed) timed inside a
/// transaction that is rolled back, with the change-log triggers and with them disabled, the median of each.
/// </summary>
public sealed record TriggerCost(string Table, string Changed, double Share, long SourceRows, long ChangedRows, int Samples, double TrackedMs, double UntrackedMs)
{
    public string Link { get; init; } = NetworkLink.LoopbackName;

    /// <summary>The change's time with tracking over its time without.</summary>
    [JsonIgnore]
    public double? Ratio => UntrackedMs > 0 ? TrackedMs / UntrackedMs : null;
}
