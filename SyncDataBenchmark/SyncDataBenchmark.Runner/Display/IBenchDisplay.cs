namespace SyncDataBenchmark.Runner;

public interface IBenchDisplay
{
    void Say(string text);

    /// <param name="status">
    /// Time spent and left, given the jobs still to run from the current one on (the session's budget:
    /// Budget.RunBudget.Status), shown beside every job.
    /// </param>
    Task RunAsync(IReadOnlyList<PlanItem> jobs, Func<PlanItem, CancellationToken, Task<ItemOutcome>> execute, CancellationToken ct,
        Func<IReadOnlyList<PlanItem>, string>? status = null);
}
