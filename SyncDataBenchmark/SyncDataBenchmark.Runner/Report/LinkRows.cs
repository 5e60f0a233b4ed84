namespace SyncDataBenchmark.Runner.Report;

/// <summary>One link's table: its rate (null: loopback) and every case's row measured across it.</summary>
public sealed record LinkRows(string Link, long? RateBitsPerSecond, IReadOnlyList<SummaryRow> Cases);
