using System.Text.Json.Serialization;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>What the record holds of every run, a combination's (CombinationRun) or a peer's (PeerRun).</summary>
public abstract record MeasuredRun
{
    /// <summary>0 is a warm-up round (there may be several, --warmup); 1..repeat are timed.</summary>
    public required int Round { get; init; }
    public required bool Warmup { get; init; }
    /// <summary>Rows in the source when this run ran (the sweep's size).</summary>
    public long? SourceRows { get; init; }
    /// <summary>
    /// The table the run moved (--table); records from before --table read as users (the JSON source generator assigns
    /// an absent init property null, so the default is the getter's).
    /// </summary>
    public string Table { get => _table ?? SyncData.Postgres.SyncTable.Default.Name; init => _table = value; }

    private readonly string? _table;
    /// <summary>
    /// --changed: the share of the source's rows changed before the run ("1%"); null (and absent from results.json) for a
    /// run into an emptied target, so records without --changed read and write as before.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Changed { get; init; }
    /// <summary>The same share as a fraction (0.01), for the picture's axis.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? ChangedShare { get; init; }
    /// <summary>--changed: what ChangedBaseline's change_&lt;table&gt; did to the source before this run.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public ChangeMix? Changes { get; init; }
    /// <summary>The link between the two hosts this run crossed (--link).</summary>
    public string Link { get; init; } = NetworkLink.LoopbackName;
    /// <summary>What crossed a shaped link during the run (a peer's: during its timed script); null on loopback.</summary>
    public LinkTraffic? Traffic { get; init; }
    /// <summary>
    /// The target's count and checksum as the runner read them just before the run, after making them differ from the
    /// source's (null in records from before it, and when the target could not be prepared): with the source's and the
    /// target's after the run, the record itself shows the run had something to do and did it.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public SyncData.Shared.TableChecksum? TargetBefore { get; init; }
    /// <summary>Why there is no usable result (transport, HTTP status, the run's or the tool's own error, verification).</summary>
    public string? Error { get; init; }

    /// <summary>The case the run belongs to, named from what the record holds (its key, label, picture and split).</summary>
    [JsonIgnore]
    public abstract CaseIdentity Identity { get; }

    /// <summary>The run succeeded and the target was verified against the source.</summary>
    public abstract bool Ok { get; }
}
