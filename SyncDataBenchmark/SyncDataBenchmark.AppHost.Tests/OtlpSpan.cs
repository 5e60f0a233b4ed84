namespace SyncDataBenchmark.AppHost.Tests;

/// <summary>One span as the dashboard's telemetry API answers it (OTLP JSON), with its resource's service name and its scope.</summary>
public sealed record OtlpSpan(string Service, string Scope, string TraceId, string SpanId, string Name, IReadOnlyDictionary<string, string> Attributes)
{
    public string? Attribute(string key) => Attributes.TryGetValue(key, out var value) ? value : null;

    /// <summary>The database a client span talks to (db.namespace in the current conventions, db.name before).</summary>
    public string? Database => Attribute("db.namespace") ?? Attribute("db.name");

    public override string ToString() => $"{Service}/{Scope}: {Name} [{string.Join(", ", Attributes.Select(a => $"{a.Key}={a.Value}"))}]";
}
