namespace SyncData.Harness;

/// <summary>SyncDataSource and SomeService as the runner uses them: started by the lab (<see cref="StartedServices"/>) or a user's (the runner's ExistingServices).</summary>
public interface ILabServices : IAsyncDisposable
{
    /// <summary>Where the runner reaches SomeService: a URL, or http://unix:/path on a shaped link.</summary>
    string SomeServiceAddress { get; }
    Uri? SourceUrl { get; }
    bool StartedByRunner { get; }

    /// <summary>SomeService's last lines, when the runner started it: context for a failed request.</summary>
    string? SomeServiceOutput { get; }

    HttpClient CreateSomeServiceClient(TimeSpan timeout);

    /// <summary>Restarts the services under <paramref name="profile"/> unless they run it (or are not the runner's to restart).</summary>
    Task UseProfileAsync(RuntimeProfile profile, Action<string> say, CancellationToken ct);

    /// <summary>Restarts a service that died (a crashed run must not fail every later one too): what was done, or null.</summary>
    Task<string?> ReviveAsync(CancellationToken ct);
}
