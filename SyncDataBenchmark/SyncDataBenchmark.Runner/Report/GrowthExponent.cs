namespace SyncDataBenchmark.Runner.Report;

/// <summary>A fitted power law y ∝ rows^Exponent, and how many sizes it was fitted on.</summary>
public sealed record GrowthExponent(double Exponent, int Points);
