using System.Globalization;
using System.Net.Http.Json;

namespace SyncData.Shared;

/// <summary>SomeService's routes, as the server maps them and its callers (the runner, the tests) call them.</summary>
public static class SyncRoutes
{
    public const string Sync = "sync";
    public const string Runs = "sync/runs";

    public static string Run(Guid id) => $"{Runs}/{id}";

    /// <summary>
    /// The one place the trigger's query string is written: GET /sync?f=&amp;i=[&amp;pageSize=&amp;batchSize=][&amp;wait=true][&amp;c=].
    /// Names go as given (the service matches them case-insensitively), escaped; no <paramref name="compression"/>
    /// leaves c= out (the service's default, none).
    /// </summary>
    public static string Trigger(string fetch, string insert, int? pageSize = null, int? batchSize = null, bool wait = false, string? compression = null) =>
        $"{Sync}?f={Uri.EscapeDataString(fetch)}&i={Uri.EscapeDataString(insert)}"
        + (pageSize is { } p ? "&pageSize=" + p.ToString(CultureInfo.InvariantCulture) : "")
        + (batchSize is { } b ? "&batchSize=" + b.ToString(CultureInfo.InvariantCulture) : "")
        + (wait ? "&wait=true" : "")
        + (compression is { } c ? "&c=" + Uri.EscapeDataString(c) : "");
}

/// <summary>
/// A typed client for SomeService's sync API over the caller's <see cref="HttpClient"/> (its base address is
/// SomeService's). The trigger and cancel return the raw answer, because callers judge its status themselves (a 409,
/// a 400 are answers, not errors); the reads return records.
/// </summary>
public sealed class SomeServiceClient(HttpClient http)
{
    public HttpClient Http => http;

    /// <summary>GET /sync: 202 with the started run, or with <paramref name="wait"/> 200 with the finished one.</summary>
    public Task<HttpResponseMessage> TriggerAsync(string fetch, string insert, int? pageSize = null, int? batchSize = null, bool wait = false, CancellationToken ct = default, string? compression = null) =>
        http.GetAsync(SyncRoutes.Trigger(fetch, insert, pageSize, batchSize, wait, compression), ct);

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
