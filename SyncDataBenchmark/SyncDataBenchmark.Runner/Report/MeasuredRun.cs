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
    public string Table { get => _table ?? SyncData.Postgres.SyncTable.Users.Name; init => _table = value; }

    private readonly string? _table;
    /// <summary>The link between the two hosts this run crossed (--link).</summary>
    public string Link { get; init; } = NetworkLink.LoopbackName;
    /// <summary>What crossed a shaped link during the run (a peer's: during its timed script); null on loopback.</summary>
    public LinkTraffic? Traffic { get; init; }
    /// <summary>Why there is no usable result (transport, HTTP status, the run's or the tool's own error, verification).</summary>
    public string? Error { get; init; }

    /// <summary>The run succeeded and the target was verified against the source.</summary>
    public abstract bool Ok { get; }
}
