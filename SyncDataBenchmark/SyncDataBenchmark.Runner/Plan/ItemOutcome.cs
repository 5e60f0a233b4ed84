namespace SyncDataBenchmark.Runner;

/// <summary>How one plan item went, in a line for the progress display.</summary>
public sealed record ItemOutcome(bool Ok, string Text);
