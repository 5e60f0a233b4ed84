namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One case against one psql pipe at one size: the ratio of their median times (target statements, the scope both
/// share) and how sure it is — its 95% interval (RunStatistics.Ratio); null with fewer than five runs on a side.
/// </summary>
public sealed record FloorRatio(string Title, long Rows, string Peer, double MedianMs, int Runs, double PeerMedianMs, int PeerRuns, double Ratio, double? Low, double? High)
{
    /// <summary>The pipe's row as the summary labels it: "peer: psql binary pipe [orders]".</summary>
    public string PeerLabel { get; init; } = "";
}
