namespace SyncDataBenchmark.Runner.Report;

/// <summary>A runtime profile as asked (its environment variables) and as the services reported it.</summary>
public sealed record ProfileReport(string Name, string Description, IReadOnlyDictionary<string, string> Environment, bool Main);
