using System.Net;
using System.Text.Json;
using Microsoft.AspNetCore.Mvc.Testing;
using SyncData.Shared;

namespace SyncDataBenchmark.Tests;

/// <summary>Both services of <see cref="InProcessLab"/> in process, SomeService calling this SyncDataSource, with a client for each (InProcessLab.Pair).</summary>
public sealed class InProcessPair(WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions> source,
    WebApplicationFactory<SomeService.Sync.SyncOptions> someService) : IAsyncDisposable
{
    public HttpClient Source { get; } = source.CreateClient();

    public SomeServiceClient SomeService { get; } = new(someService.CreateClient());

    /// <summary>A run triggered with wait=true, as it ended (succeeded or not).</summary>
    public Task<RunResult> SyncAsync(string fetch, string insert) => InProcessLab.SyncAsync(SomeService.Http, fetch, insert);

    /// <summary>The status and the problem's detail (or the whole body) of a GET to SyncDataSource.</summary>
    public async Task<(HttpStatusCode Status, string Detail)> GetProblemAsync(string pathAndQuery)
    {
        using var response = await Source.GetAsync(pathAndQuery);
        var body = await response.Content.ReadAsStringAsync();
        try
        {
            using var problem = JsonDocument.Parse(body);
            return (response.StatusCode, problem.RootElement.GetProperty("detail").GetString() ?? body);
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            return (response.StatusCode, body);
        }
    }

    public async ValueTask DisposeAsync()
    {
        Source.Dispose();
        SomeService.Http.Dispose();
        await someService.DisposeAsync();
        await source.DisposeAsync();
    }
}
