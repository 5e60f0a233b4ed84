using System.Diagnostics;

namespace SyncData.ServiceDefaults;

/// <summary>
/// A sync run's id on its spans, so one trace (or a search for the id) shows the whole run in both services: the
/// span that starts the run gets it as a tag and as W3C baggage, which HttpClient carries to SyncDataSource and
/// <see cref="RunIdSpanProcessor"/> copies onto every span under it.
/// </summary>
public static class RunTelemetry
{
    public const string RunIdKey = "sync.run.id";

    /// <summary>
    /// Marks the current span as run <paramref name="id"/>'s. Does nothing unless the span is recorded (traces are
    /// exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set), so a measured run sends no extra header. Recorded, not
    /// IsAllDataRequested: ASP.NET Core creates a request's activity for its log scopes without any tracer, and such an
    /// activity requests all data but is never recorded.
    /// </summary>
    public static void MarkRun(Guid id)
    {
        if (Activity.Current is { Recorded: true } span)
        {
            var value = id.ToString();
            span.SetTag(RunIdKey, value);
            span.AddBaggage(RunIdKey, value);
        }
    }
}
