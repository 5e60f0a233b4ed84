namespace SyncDataBenchmark.Runner;

public interface IBenchDisplay
{
    void Say(string text);

    /// <param name="prior">A case's expected time before it has run here (a sweep: predicted from the smaller sizes).</param>
    Task RunAsync(IReadOnlyList<BenchJob> jobs, Func<BenchJob, CancellationToken, Task<JobOutcome>> execute, CancellationToken ct,
        Func<string, TimeSpan?>? prior = null);
}
