namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One situation of "What to pick", computed from the summary rows (<see cref="Verdict"/>): the fastest verified way by
/// median, every way no test tells apart from it, the ways with too few runs to compare (RunStatistics.MinTestRuns), and
/// the runner-up: the fastest way the test says is slower.
/// </summary>
public sealed record VerdictRow(string Situation, SummaryRow? Use, IReadOnlyList<SummaryRow> Tied, SummaryRow? RunnerUp)
{
    /// <summary>The ways either side of whose comparison with <see cref="Use"/> had too few runs: not called tied, faster or slower.</summary>
    public IReadOnlyList<SummaryRow> TooFew { get; init; } = [];
}
