using System.Diagnostics;
using System.Net;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>SomeService's GET /sync?…&amp;table=&amp;wait=true for one combination and table: the measured request.</summary>
public static class SyncTrigger
{
    /// <summary>Another run in progress (someone else's, on a shared SomeService) is waited out this long.</summary>
    public static readonly TimeSpan BusyPatience = TimeSpan.FromMinutes(10);

    /// <summary>The answer to the request, another run in progress (409) waited out; the wall time of the answered request.</summary>
    public static async Task<(HttpStatusCode Status, string Body, TimeSpan Wall)> SendAsync(HttpClient http, Combination combination, SyncTable table, BenchSettings settings, CancellationToken ct)
    {
        var api = new SomeServiceClient(http);
        // none is sent as no c= at all.
        var compression = combination.Compression == BodyCompression.None ? null : combination.Compression;
        var busy = Stopwatch.StartNew();
        while (true)
        {
            var clock = Stopwatch.StartNew();
            using var response = await api.TriggerAsync($"{combination.Fetch}", $"{combination.Insert}", settings.PageSize, settings.BatchSize, wait: true, ct: ct, compression: compression, table: table.Name);
            var body = await response.Content.ReadAsStringAsync(ct);
            if (response.StatusCode == HttpStatusCode.Conflict && busy.Elapsed < BusyPatience)
            {
                await Task.Delay(TimeSpan.FromSeconds(2), ct);
                continue;
            }

            return (response.StatusCode, body, clock.Elapsed);
        }
    }
}
