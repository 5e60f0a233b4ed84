namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The bytes that crossed a shaped link during one run or peer, each way (the source host's veth counters read before
/// and after), and per source row. Loopback runs have none.
/// </summary>
public sealed record LinkTraffic(long SourceToTargetBytes, long TargetToSourceBytes, double? BytesPerRow)
{
    public long TotalBytes => SourceToTargetBytes + TargetToSourceBytes;

    /// <summary>The least time the link allows: the busier direction's bytes at its rate (each direction has its own).</summary>
    public double FloorMs(long rateBitsPerSecond) => Math.Max(SourceToTargetBytes, TargetToSourceBytes) * 8.0 / rateBitsPerSecond * 1000;
}
