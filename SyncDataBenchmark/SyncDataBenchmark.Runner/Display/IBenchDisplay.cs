namespace SyncDataBenchmark.Runner;

public interface IBenchDisplay
{
    void Say(string text);

    /// <param name="prior">A case's expected time before it has run here (a sweep: predicted from the smaller sizes).</param>
    Task RunAsync(IReadOnlyList<PlanItem> jobs, Func<PlanItem, CancellationToken, Task<ItemOutcome>> execute, CancellationToken ct,
        Func<string, TimeSpan?>? prior = null);
}
