namespace SyncDataBenchmark.Runner.Budget;

/// <summary>
/// A case the budget's plan did not give its full runs at a size (<see cref="BudgetPlanner"/>), said before the runs
/// and kept in results.json: measured once and not compared (<see cref="Runs"/> 1), or left out (0), and why.
/// </summary>
/// <param name="Case">The case's key under its profile (PlanItem.Key).</param>
/// <param name="PredictedSeconds">One run's expected time, everything in, when the plan was made.</param>
public sealed record BudgetedCase(string Case, string Title, long Rows, string Link, int Runs, double PredictedSeconds, string Reason)
{
    /// <summary>Measured once, shown, never compared: too few runs for any test.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool Once => Runs == 1;
}
