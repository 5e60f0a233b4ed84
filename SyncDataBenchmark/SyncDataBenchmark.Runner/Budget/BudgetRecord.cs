namespace SyncDataBenchmark.Runner.Budget;

/// <summary>
/// results.json's "budget": the session's --budget, the cases its plan measured once or left out, and what it said as
/// it went (each size's plan, a round not started). Absent in records from before it.
/// </summary>
public sealed record BudgetRecord(double Seconds, IReadOnlyList<BudgetedCase> Cases, IReadOnlyList<string> Notes)
{
    /// <summary>Whether the plan measured <paramref name="key"/> (PlanItem.Key) once at <paramref name="rows"/> across <paramref name="link"/>.</summary>
    public bool Once(string key, long rows, string link) => Cases.Any(c => c.Once && c.Case == key && c.Rows == rows && c.Link == link);
}
