using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// Tags every request to SyncDataSource made while a run executes with the run's id (<see cref="SourceRoutes.RunHeader"/>),
/// so the source can measure itself over exactly that run's requests. The id flows with the run's async context:
/// the fetch approaches need not know about it.
/// </summary>
public sealed class RunTagHandler : DelegatingHandler
{
    private static readonly AsyncLocal<Guid?> Current = new();

    /// <summary>Tags what the calling async flow sends from now on (the run's own task: it ends with the run).</summary>
    public static void TagRequestsWith(Guid run) => Current.Value = run;

    protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        if (Current.Value is { } run)
        {
            request.Headers.Add(SourceRoutes.RunHeader, run.ToString());
        }

        return base.SendAsync(request, cancellationToken);
    }
}
