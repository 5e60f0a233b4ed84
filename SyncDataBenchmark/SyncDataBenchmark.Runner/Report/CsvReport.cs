using CsvHelper;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>results.csv: one row per run (combinations and peers, warm-ups flagged), for spreadsheets and pandas.</summary>
public static partial class CsvReport
{
    /// <summary>CsvHelper's source generator writes the mapping (CsvHelper 34: no reflection).</summary>
    [CsvRecord]
    public sealed partial record Row
    {
        public string Kind { get; set; } = "";
        public string Case { get; set; } = "";
        public string Profile { get; set; } = "";
        public int? Number { get; set; }
        public string Fetch { get; set; } = "";
        public string Insert { get; set; } = "";
        public int Round { get; set; }
        public bool Warmup { get; set; }
        /// <summary>Rows in the source for this run (the sweep's size); Rows below is what the run moved.</summary>
        public long? SourceRows { get; set; }
        public string Status { get; set; } = "";
        public bool Verified { get; set; }
        public long Rows { get; set; }
        public double? DurationMs { get; set; }
        public double? RowsPerSecond { get; set; }
        public double? WallMs { get; set; }
        public int? PageSize { get; set; }
        public int? BatchSize { get; set; }
        public long? SomeServiceAllocatedBytes { get; set; }
        public string? SomeServiceAllocatedBytesUnavailable { get; set; }
        public int? SomeServiceHeapCountStart { get; set; }
        public int? SomeServiceHeapCountEnd { get; set; }
        public long? SomeServicePeakWorkingSetBytes { get; set; }
        public int? SomeServiceGcGen0 { get; set; }
        public int? SomeServiceGcGen1 { get; set; }
        public int? SomeServiceGcGen2 { get; set; }
        public double? SomeServiceGcPauseMs { get; set; }
        public long? SyncDataSourceAllocatedBytes { get; set; }
        public string? SyncDataSourceAllocatedBytesUnavailable { get; set; }
        public int? SyncDataSourceHeapCountStart { get; set; }
        public int? SyncDataSourceHeapCountEnd { get; set; }
        public long? SyncDataSourcePeakWorkingSetBytes { get; set; }
        public int? SyncDataSourceGcGen0 { get; set; }
        public int? SyncDataSourceGcGen1 { get; set; }
        public int? SyncDataSourceGcGen2 { get; set; }
        public double? SyncDataSourceGcPauseMs { get; set; }
        /// <summary>What DurationMs measures: target-statements (runs, most peers) or whole-command.</summary>
        public string? Scope { get; set; }
        public string? RunId { get; set; }
        public string? Error { get; set; }
    }

    public static IEnumerable<Row> Rows(BenchReport report)
    {
        foreach (var r in report.Runs)
        {
            var result = r.Result;
            var some = result?.SomeService;
            var source = result?.SyncDataSource;
            yield return new Row
            {
                Kind = CaseSummary.Kinds.Combination,
                Case = r.Case,
                Profile = r.Profile,
                Number = r.Number,
                Fetch = r.Fetch,
                Insert = r.Insert,
                Round = r.Round,
                SourceRows = r.SourceRows,
                Warmup = r.Warmup,
                Status = result?.Status ?? "failed",
                Verified = result?.Verified ?? false,
                Rows = result?.Rows ?? 0,
                DurationMs = result?.DurationMs,
                RowsPerSecond = result?.RowsPerSecond,
                WallMs = r.WallMs,
                PageSize = result?.PageSize,
                BatchSize = result?.BatchSize,
                SomeServiceAllocatedBytes = some?.AllocatedBytes,
                SomeServiceAllocatedBytesUnavailable = some?.AllocatedBytesUnavailable,
                SomeServiceHeapCountStart = some?.HeapCountStart,
                SomeServiceHeapCountEnd = some?.HeapCountEnd,
                SomeServicePeakWorkingSetBytes = some?.PeakWorkingSetBytes,
                SomeServiceGcGen0 = some?.GcGen0,
                SomeServiceGcGen1 = some?.GcGen1,
                SomeServiceGcGen2 = some?.GcGen2,
                SomeServiceGcPauseMs = some?.GcPauseMs,
                SyncDataSourceAllocatedBytes = source?.AllocatedBytes,
                SyncDataSourceAllocatedBytesUnavailable = source?.AllocatedBytesUnavailable,
                SyncDataSourceHeapCountStart = source?.HeapCountStart,
                SyncDataSourceHeapCountEnd = source?.HeapCountEnd,
                SyncDataSourcePeakWorkingSetBytes = source?.PeakWorkingSetBytes,
                SyncDataSourceGcGen0 = source?.GcGen0,
                SyncDataSourceGcGen1 = source?.GcGen1,
                SyncDataSourceGcGen2 = source?.GcGen2,
                SyncDataSourceGcPauseMs = source?.GcPauseMs,
                Scope = Runner.PeerScopes.TargetStatements,
                RunId = result?.Id.ToString(),
                Error = r.Error,
            };
        }

        foreach (var p in report.Peers)
        {
            var summary = report.Summary.FirstOrDefault(s => s.Case == p.Peer);
            yield return new Row
            {
                Kind = CaseSummary.Kinds.Peer,
                Case = p.Peer,
                Profile = summary?.Profile ?? "",
                Fetch = summary?.Fetch ?? "",
                Insert = summary?.Insert ?? "",
                Round = p.Round,
                SourceRows = p.SourceRows,
                Warmup = p.Warmup,
                Status = p.Status,
                Verified = p.Verified,
                Rows = p.Rows,
                DurationMs = p.DurationMs,
                RowsPerSecond = p is { Ok: true, DurationMs: > 0 } ? Math.Round(p.Rows / (p.DurationMs.Value / 1000)) : null,
                WallMs = p.WallMs,
                Scope = p.Scope,
                Error = p.Error,
            };
        }
    }

    public static async Task WriteAsync(BenchReport report, string path)
    {
        // Defaults: RFC 4180, invariant culture for numbers and dates.
        await using var csv = CsvWriter.ToFile(path, CsvWriterOptions.Default);
        await csv.WriteRecordsAsync(Rows(report));
    }
}
