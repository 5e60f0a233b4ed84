namespace SyncData.Harness.Network;

/// <summary>Bytes that crossed the link, each way, read from the source host's veth end.</summary>
public sealed record LinkCounters(long SourceToTargetBytes, long TargetToSourceBytes)
{
    public LinkCounters Since(LinkCounters before) =>
        new(SourceToTargetBytes - before.SourceToTargetBytes, TargetToSourceBytes - before.TargetToSourceBytes);

    public long TotalBytes => SourceToTargetBytes + TargetToSourceBytes;
}
