namespace SyncData.Shared;

/// <summary>One sync run as SomeService stores and reports it.</summary>
public sealed record RunResult
{
    public required Guid Id { get; init; }
    public required string Fetch { get; init; }
    public required string Insert { get; init; }
    /// <summary>
    /// The table the run moved; runs recorded before the table dimension moved users, and read back as such (the source
    /// generator assigns an absent init property null, so the default is the getter's, not an initializer).
    /// </summary>
    public string Table { get => _table ?? SyncRoutes.DefaultTable; init => _table = value; }

    private readonly string? _table;
    /// <summary>Rows the target's table holds after the run, verified (0 when the run failed: the transaction was rolled back).</summary>
    public long Rows { get; init; }
    /// <summary>
    /// A merge (a writer declared Merges = true): the rows it inserted or updated, i.e. every row the fetch delivered (the
    /// writer's own count, when it gives one, must agree); the whole table with a full fetch, the changed rows with a
    /// change fetch. Null for a reload.
    /// </summary>
    public long? RowsMerged { get; init; }
    /// <summary>
    /// A merge fed by a change fetch: the keys the source reported deleted since the watermark, handed to the writer to
    /// delete. Null for a reload and for a full fetch (whose merge deletes the target rows the source lacks, uncounted).
    /// </summary>
    public long? RowsDeleted { get; init; }
    public int? PageSize { get; init; }
    public int? BatchSize { get; init; }
    /// <summary>The content coding the run asked SyncDataSource for (<see cref="BodyCompression"/>).</summary>
    public string Compression { get; init; } = BodyCompression.None;
    /// <summary>The fetch responses' body bytes as received on the wire (compressed unless Compression is none); headers excluded.</summary>
    public long? WireBytes { get; init; }
    /// <summary>The same bodies decoded: the bytes the consumer parsed or relayed. WireBytes / BodyBytes is the compression ratio.</summary>
    public long? BodyBytes { get; init; }
    public required string Status { get; init; }
    public string? Error { get; init; }
    public required DateTimeOffset StartedAt { get; init; }
    /// <summary>Wall time of the transfer: truncate, fetch, write and commit; the verification query is excluded.</summary>
    public double? DurationMs { get; init; }
    public double? RowsPerSecond { get; init; }
    /// <summary>Target count and checksum equal the source's, checked inside the run's transaction before commit.</summary>
    public bool Verified { get; init; }
    /// <summary>Reading both checksums (source and target count + checksum), after the write, before the commit.</summary>
    public double? VerifyMs { get; init; }
    public TableChecksum? Source { get; init; }
    /// <summary>The snapshot every read of the source in this run, its checksum included, was taken in (SyncDataSource's RunSnapshots).</summary>
    public SourceSnapshot? SourceSnapshot { get; init; }
    public TableChecksum? Target { get; init; }
    public ServiceFigures? SomeService { get; init; }
    public ServiceFigures? SyncDataSource { get; init; }
}
