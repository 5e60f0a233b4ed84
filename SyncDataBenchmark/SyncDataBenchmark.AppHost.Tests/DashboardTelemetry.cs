using System.Diagnostics;
using System.Net;
using System.Text.Json;

namespace SyncDataBenchmark.AppHost.Tests;

/// <summary>The Aspire dashboard's telemetry HTTP API (/api/telemetry, OTLP JSON), read with the AppHost's dashboard API key.</summary>
public sealed class DashboardTelemetry : IDisposable
{
    private readonly HttpClient _http;

    public DashboardTelemetry(HttpClient http, string apiKey)
    {
        _http = http;
        _http.DefaultRequestHeaders.Add("X-API-Key", apiKey);
    }

    /// <summary>The most recent spans the dashboard holds.</summary>
    public Task<IReadOnlyList<OtlpSpan>> SpansAsync(CancellationToken ct) => ReadAsync("api/telemetry/spans?limit=10000", ct);

    /// <summary>Every span of one trace; none while the dashboard has not seen it.</summary>
    public Task<IReadOnlyList<OtlpSpan>> TraceAsync(string traceId, CancellationToken ct) => ReadAsync("api/telemetry/traces/" + traceId, ct);

    /// <summary>
    /// The trace of the run's trigger (GET /sync tagged with the run's id), polled until <paramref name="incomplete"/>
    /// has nothing more to say: spans arrive in export batches, each service's on its own schedule.
    /// </summary>
    public async Task<(IReadOnlyList<OtlpSpan> Spans, string? Incomplete)> WaitForRunTraceAsync(
        Guid run, Func<IReadOnlyList<OtlpSpan>, string?> incomplete, TimeSpan patience)
    {
        using var timeout = new CancellationTokenSource(patience);
        var clock = Stopwatch.StartNew();
        IReadOnlyList<OtlpSpan> spans = [];
        var why = "the dashboard holds no GET /sync span tagged with the run's id";
        while (true)
        {
            var trigger = (await SpansAsync(timeout.Token)).FirstOrDefault(s => s.Name.StartsWith("GET /sync", StringComparison.Ordinal)
                && s.Attribute(SyncData.ServiceDefaults.RunTelemetry.RunIdKey) == run.ToString());
            if (trigger is not null)
            {
                spans = await TraceAsync(trigger.TraceId, timeout.Token);
                if (incomplete(spans) is not { } lacks)
                {
                    return (spans, null);
                }

                why = lacks;
            }

            if (clock.Elapsed > patience - TimeSpan.FromSeconds(2))
            {
                return (spans, why);
            }

            await Task.Delay(TimeSpan.FromSeconds(1), timeout.Token);
        }
    }

    private async Task<IReadOnlyList<OtlpSpan>> ReadAsync(string uri, CancellationToken ct)
    {
        using var response = await _http.GetAsync(uri, ct);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return [];
        }

        response.EnsureSuccessStatusCode();
        using var json = await JsonDocument.ParseAsync(await response.Content.ReadAsStreamAsync(ct), cancellationToken: ct);
        var spans = new List<OtlpSpan>();
        if (!json.RootElement.TryGetProperty("data", out var data) || !data.TryGetProperty("resourceSpans", out var resources))
        {
            return spans;
        }

        foreach (var resource in resources.EnumerateArray())
        {
            var service = Attributes(resource.GetProperty("resource")).GetValueOrDefault("service.name", "");
            foreach (var scope in resource.GetProperty("scopeSpans").EnumerateArray())
            {
                var scopeName = scope.TryGetProperty("scope", out var s) && s.TryGetProperty("name", out var n) ? n.GetString() ?? "" : "";
                foreach (var span in scope.GetProperty("spans").EnumerateArray())
                {
                    spans.Add(new OtlpSpan(service, scopeName, span.GetProperty("traceId").GetString() ?? "", span.GetProperty("spanId").GetString() ?? "",
                        span.GetProperty("name").GetString() ?? "", Attributes(span)));
                }
            }
        }

        return spans;
    }

    /// <summary>An OTLP element's attributes, each value as text (strings as they are, numbers and booleans as JSON writes them).</summary>
    private static Dictionary<string, string> Attributes(JsonElement element)
    {
        var attributes = new Dictionary<string, string>();
        if (element.TryGetProperty("attributes", out var list))
        {
            foreach (var attribute in list.EnumerateArray())
            {
                var value = attribute.GetProperty("value");
                var first = value.EnumerateObject().FirstOrDefault();
                attributes[attribute.GetProperty("key").GetString() ?? ""] =
                    first.Value.ValueKind == JsonValueKind.String ? first.Value.GetString() ?? "" : first.Value.GetRawText();
            }
        }

        return attributes;
    }

    public void Dispose() => _http.Dispose();
}
