using System.Diagnostics;

namespace SyncDataBenchmark.Runner.Budget;

/// <summary>
/// The session's wall-time budget (--budget), on the clock the command started at (the lab's set-up counts): what is
/// spent and left, what each size may use, and whether a round still fits.
/// </summary>
public sealed class RunBudget(TimeSpan total, Stopwatch clock)
{
    public TimeSpan Total => total;
    public TimeSpan Spent => clock.Elapsed;
    public TimeSpan Left => total - clock.Elapsed;

    /// <summary>
    /// The seconds size <paramref name="sizeIndex"/> across one of <paramref name="linksLeft"/> links may use: what is left,
    /// shared in proportion to the rows of this size and those still to come on this link, and evenly over the links.
    /// </summary>
    public double ShareSeconds(IReadOnlyList<long> sizes, int sizeIndex, int linksLeft)
    {
        var rowsLeft = sizes.Skip(sizeIndex).Sum(s => (double)s);
        return Math.Max(0, Left.TotalSeconds) * sizes[sizeIndex] / rowsLeft / Math.Max(1, linksLeft);
    }

    /// <summary>Whether a round expected to take <paramref name="seconds"/> ends within the budget.</summary>
    public bool Fits(double seconds) => Spent.TotalSeconds + seconds <= total.TotalSeconds;

    /// <summary>The progress line's budget part: "spent 12m 10s of 1h 15m · round 3 ~2m 30s more · ~40m more planned".</summary>
    public string Status(int round, double roundLeftSeconds, double plannedLeftSeconds) =>
        $"spent {Estimator.Format(Spent)} of {Estimator.Format(total)} · round {round} ~{BudgetPlanner.Format(roundLeftSeconds)} more" +
        $" · ~{BudgetPlanner.Format(Math.Min(plannedLeftSeconds, Math.Max(0, Left.TotalSeconds)))} more planned, at most {BudgetPlanner.Format(Math.Max(0, Left.TotalSeconds))}";
}
