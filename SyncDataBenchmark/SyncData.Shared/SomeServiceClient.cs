using System.Globalization;
using System.Net.Http.Json;

namespace SyncData.Shared;

/// <summary>
/// A typed client for SomeService's sync API over the caller's <see cref="HttpClient"/> (its base address is
/// SomeService's). The trigger and cancel return the raw answer, because callers judge its status themselves (a 409,
/// a 400 are answers, not errors); the reads return records.
/// </summary>
public sealed class SomeServiceClient(HttpClient http)
{
    public HttpClient Http => http;

    /// <summary>GET /sync: 202 with the started run, or with <paramref name="wait"/> 200 with the finished one.</summary>
    /// <param name="table">The table the run moves (SyncData.Postgres.SyncTable's name); null: the service's default, users.</param>
    public Task<HttpResponseMessage> TriggerAsync(string fetch, string insert, int? pageSize = null, int? batchSize = null, bool wait = false, CancellationToken ct = default,
        string? compression = null, string? table = null) =>
        http.GetAsync(SyncRoutes.Trigger(fetch, insert, pageSize, batchSize, wait, compression, table), ct);

    /// <summary>GET /sync/runs/{id}; null when no such run is known.</summary>
    public async Task<RunResult?> GetRunAsync(Guid id, CancellationToken ct = default)
    {
        using var response = await http.GetAsync(SyncRoutes.Run(id), ct);
        if (response.StatusCode == System.Net.HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        return await response.Content.ReadFromJsonAsync(SyncJsonContext.Default.RunResult, ct);
    }

    /// <summary>GET /sync/runs?limit=: the newest runs first.</summary>
    public async Task<List<RunResult>> ListRunsAsync(int limit, CancellationToken ct = default) =>
        await http.GetFromJsonAsync(string.Create(CultureInfo.InvariantCulture, $"{SyncRoutes.Runs}?limit={limit}"), SyncJsonContext.Default.ListRunResult, ct) ?? [];

    /// <summary>DELETE /sync/runs/{id}: asks a running run to stop (202), or says why not.</summary>
    public Task<HttpResponseMessage> CancelAsync(Guid id, CancellationToken ct = default) => http.DeleteAsync(SyncRoutes.Run(id), ct);
}
