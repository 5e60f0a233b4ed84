namespace SyncDataBenchmark.Runner.Report;

/// <summary>A case the sweep did not run at a size, and why (it is listed, never dropped silently).</summary>
public sealed record SkippedCase(string Case, string Title, string Profile, long Rows, double PredictedMs, string Reason)
{
    /// <summary>The link the case was skipped across (--link).</summary>
    public string Link { get; init; } = NetworkLink.LoopbackName;
}
