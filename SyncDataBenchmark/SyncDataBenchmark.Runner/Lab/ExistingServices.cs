using SyncData.Harness;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A user's running SomeService (--someservice-url): it reads from whatever source it was configured with
/// (--source-url is only recorded) and runs whatever runtime settings it was started with.
/// </summary>
public sealed class ExistingServices(Uri someService, Uri? source) : ILabServices
{
    public string SomeServiceAddress => someService.ToString();
    public Uri? SourceUrl => source;
    public bool StartedByRunner => false;
    public string? SomeServiceOutput => null;

    public static async Task<ExistingServices> CheckAsync(Uri someService, Uri? source, Action<string> say, CancellationToken ct)
    {
        say($"Using SomeService at {someService}.");
        var services = new ExistingServices(someService, source);
        using var http = services.CreateSomeServiceClient(TimeSpan.FromSeconds(10));
        using var health = await http.GetAsync("health", ct);
        health.EnsureSuccessStatusCode();
        return services;
    }

    public HttpClient CreateSomeServiceClient(TimeSpan timeout) => new() { BaseAddress = someService, Timeout = timeout };

    public Task UseProfileAsync(RuntimeProfile profile, Action<string> say, CancellationToken ct) => Task.CompletedTask;

    public Task<string?> ReviveAsync(CancellationToken ct) => Task.FromResult<string?>(null);

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
