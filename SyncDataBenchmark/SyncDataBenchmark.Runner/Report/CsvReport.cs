using CsvHelper;
using SyncData.Shared;

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
        /// <summary>The content coding the run asked for (none for peers).</summary>
        public string Compression { get; set; } = BodyCompression.None;
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
        /// <summary>Fetch bodies' bytes on the wire, and decoded (RunResult.WireBytes, BodyBytes).</summary>
        public long? WireBytes { get; set; }
        public long? BodyBytes { get; set; }
        [CsvColumn(Prefix = "SomeService")]
        public ServiceColumns SomeService { get; set; } = ServiceColumns.None;
        [CsvColumn(Prefix = "SyncDataSource")]
        public ServiceColumns SyncDataSource { get; set; } = ServiceColumns.None;
        /// <summary>What DurationMs measures: target-statements (runs, most peers) or whole-command.</summary>
        public string? Scope { get; set; }
        /// <summary>The link crossed (--link) and, on a shaped one, the bytes that crossed it each way and per source row.</summary>
        public string Link { get; set; } = NetworkLink.LoopbackName;
        public long? LinkSourceToTargetBytes { get; set; }
        public long? LinkTargetToSourceBytes { get; set; }
        public double? LinkBytesPerRow { get; set; }
        public string? RunId { get; set; }
        public string? Error { get; set; }
    }

    /// <summary>One service's figures of a run; the same columns for both services, each under its own prefix.</summary>
    [CsvRecord]
    public sealed partial record ServiceColumns
    {
        public static ServiceColumns None { get; } = new();

        public long? AllocatedBytes { get; set; }
        public string? AllocatedBytesUnavailable { get; set; }
        public long? AllocationTickBytes { get; set; }
        public string? AllocationTickUnavailable { get; set; }
        public int? HeapCountStart { get; set; }
        public int? HeapCountEnd { get; set; }
        public long? PeakWorkingSetBytes { get; set; }
        public int? GcGen0 { get; set; }
        public int? GcGen1 { get; set; }
        public int? GcGen2 { get; set; }
        public double? GcPauseMs { get; set; }
        public double? CpuTimeMs { get; set; }
        public double? JitTimeMs { get; set; }
        public long? JitMethods { get; set; }

        public static ServiceColumns Of(ServiceFigures? f) => f is null ? None : new()
        {
            AllocatedBytes = f.AllocatedBytes,
            AllocatedBytesUnavailable = f.AllocatedBytesUnavailable,
            AllocationTickBytes = f.AllocationTickBytes,
            AllocationTickUnavailable = f.AllocationTickUnavailable,
            HeapCountStart = f.HeapCountStart,
            HeapCountEnd = f.HeapCountEnd,
            PeakWorkingSetBytes = f.PeakWorkingSetBytes,
            GcGen0 = f.GcGen0,
            GcGen1 = f.GcGen1,
            GcGen2 = f.GcGen2,
            GcPauseMs = f.GcPauseMs,
            CpuTimeMs = f.CpuTimeMs,
            JitTimeMs = f.JitTimeMs,
            JitMethods = f.JitMethods,
        };
    }

    public static IEnumerable<Row> Rows(BenchReport report) =>
        report.Runs.Select(OfRun).Concat(report.Peers.Select(p => OfPeer(p, PeerDefinition.Find(p.Peer)!, report.Parameters.MainProfile)));

    private static Row OfRun(CombinationRun r)
    {
        var result = r.Result;
        return new Row
        {
            Kind = SummaryRow.Kinds.Combination,
            Case = r.Case,
            Profile = r.Profile,
            Number = r.Number,
            Fetch = r.Fetch,
            Insert = r.Insert,
            Compression = r.Compression,
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
            WireBytes = result?.WireBytes,
            BodyBytes = result?.BodyBytes,
            SomeService = ServiceColumns.Of(result?.SomeService),
            SyncDataSource = ServiceColumns.Of(result?.SyncDataSource),
            Scope = Runner.PeerScopes.TargetStatements,
            Link = r.Link,
            LinkSourceToTargetBytes = r.Traffic?.SourceToTargetBytes,
            LinkTargetToSourceBytes = r.Traffic?.TargetToSourceBytes,
            LinkBytesPerRow = r.Traffic?.BytesPerRow,
            RunId = result?.Id.ToString(),
            Error = r.Error,
        };
    }

    private static Row OfPeer(PeerRun p, PeerDefinition peer, string mainProfile) =>
        new()
        {
            Kind = SummaryRow.Kinds.Peer,
            Case = p.Peer,
            Profile = mainProfile,
            Fetch = peer.FetchLabel,
            Insert = peer.InsertLabel,
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
            Link = p.Link,
            LinkSourceToTargetBytes = p.Traffic?.SourceToTargetBytes,
            LinkTargetToSourceBytes = p.Traffic?.TargetToSourceBytes,
            LinkBytesPerRow = p.Traffic?.BytesPerRow,
            Error = p.Error,
        };

    public static async Task WriteAsync(BenchReport report, string path)
    {
        // Defaults: RFC 4180, invariant culture for numbers and dates.
        await using var csv = CsvWriter.ToFile(path, CsvWriterOptions.Default);
        await csv.WriteRecordsAsync(Rows(report));
    }
}
