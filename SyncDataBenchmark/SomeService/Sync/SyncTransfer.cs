using System.Diagnostics;
using Npgsql;
using SomeService.Fetch;
using SomeService.Insert;
using SomeService.Tables;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>
/// One run's work on the target, in ONE transaction: read the table's watermark, empty the table (a reload) or not (a
/// merge), feed the writer what the fetch delivers, compare both sides' count and checksum, store the run's snapshot as
/// the new watermark and commit, only if they match.
/// </summary>
internal sealed class SyncTransfer(
    IServiceProvider services,
    NpgsqlDataSource target,
    SyncMetrics metrics,
    SyncOptions options,
    SourceClient client,
    SyncRequest request,
    Guid runId,
    ITableWriter writer)
{
    /// <summary>The run's reads of the source, once the watermark they ask from is known; null until then.</summary>
    public ConsumerRun? Source { get; private set; }

    private bool Merges => ApproachRegistry.Catalog[request.Insert].Merges;

    /// <summary>What the run committed; <paramref name="RowsMerged"/> and <paramref name="RowsDeleted"/> as <see cref="RunResult"/> says.</summary>
    public sealed record Committed(TableChecksum Source, TableChecksum Target, TimeSpan Duration, TimeSpan VerifyTime, long? RowsMerged, long? RowsDeleted);

    /// <summary>What the writer was handed and what it said it wrote.</summary>
    private sealed record Moved(long? Written, long Handed, long? DeletedKeys);

    /// <summary>The run itself, against the source's <paramref name="snapshot"/>. Returns only once committed.</summary>
    public async Task<Committed> CommitAsync(SourceSnapshot snapshot, CancellationToken ct)
    {
        var visible = snapshot.Visible
                      ?? throw new InvalidOperationException("SyncDataSource sent the run's snapshot without pg_current_snapshot() (Visible): no watermark could be stored for the run.");
        var clock = Stopwatch.StartNew();
        // A generated table's run connects through the data source its enums are mapped on (GeneratedRowTables).
        await using var connection = await (request.Rows?.DataSource ?? target).OpenConnectionAsync(ct);
        await using var transaction = await connection.BeginTransactionAsync(ct);
        RunConnectionGuard.RefuseReopening(connection);
        var table = request.Table;
        var source = Source = new ConsumerRun(client, request, runId) { Since = await Watermarks.ReadAsync(connection, transaction, table, ct) };
        if (ApproachRegistry.Catalog[request.Fetch].Changes)
        {
            // Before anything is written or asked: a change fetch without a watermark fails naming why.
            source.RequireSince();
        }

        if (!Merges)
        {
            await using var truncate = new NpgsqlCommand($"truncate {table.SqlName}", connection, transaction);
            await truncate.ExecuteNonQueryAsync(ct);
        }

        var moved = await TransferAsync(source, new WriteTarget(table, connection, transaction, request.BatchSize, options.DatabaseCommandTimeoutSeconds), ct);
        var writeTime = clock.Elapsed;

        // Asked only now (a full scan on the source while rows move would slow the transfer it measures), and
        // both sides at once: two backends, two cores. The source's is read in the run's snapshot.
        var sourceChecksumTask = source.ReadChecksumAsync(ct);
        var targetChecksum = await connection.ReadChecksumAsync(table, transaction, ct);
        var sourceChecksum = await sourceChecksumTask;
        var verifyTime = clock.Elapsed - writeTime;
        Verify(sourceChecksum, targetChecksum, moved);

        // Verified: the watermark joins the rows, and the commit is not cancellable (a DELETE or a shutdown arriving
        // now must not abandon it half-way).
        var commitStart = clock.Elapsed;
        await Watermarks.WriteAsync(connection, transaction, table, visible, CancellationToken.None);
        await transaction.CommitAsync(CancellationToken.None);
        return new Committed(sourceChecksum, targetChecksum, writeTime + (clock.Elapsed - commitStart), verifyTime,
            Merges ? moved.Handed : null, moved.DeletedKeys);
    }

    /// <summary>
    /// Both sides equal, and the writer's own count (if it gives one) agrees: a reload wrote every row of the table, a
    /// merge inserted or updated every row it was handed.
    /// </summary>
    private void Verify(TableChecksum source, TableChecksum target, Moved moved)
    {
        var expected = Merges ? moved.Handed : target.Rows;
        if (target != source || (moved.Written is { } written && written != expected))
        {
            throw new VerificationException(
                $"Verification failed, rolled back: source has {source.Rows:N0} rows (checksum {source.Checksum}), " +
                $"target would have {target.Rows:N0} (checksum {target.Checksum})" +
                (moved.Written is null ? "" : Merges ? $", writer reported {moved.Written:N0} rows merged of {moved.Handed:N0} handed" : $", writer reported {moved.Written:N0}") + ".");
        }
    }

    /// <summary>
    /// Feeds the writer what it consumes, and names the side that failed by where the failure happened: anything
    /// thrown while reading the source is the source's (<see cref="SourceStreamException"/>), the rest the target's.
    /// </summary>
    private async Task<Moved> TransferAsync(ConsumerRun source, WriteTarget writeTarget, CancellationToken ct)
    {
        var consumer = services.GetRequiredKeyedService<IFetchConsumer>(request.Fetch);
        var handed = metrics.NewRowCounter(request);
        try
        {
            var scope = await ScopeAsync(source, ct);
            // Which pairs may run is the catalogue's rule alone (SyncApi refused the rest): a writer of COPY bytes is
            // here only with a fetch that delivers them, whose consumer is an IBinaryCopyConsumer (ApproachRegistryTests).
            var written = ApproachRegistry.Catalog[request.Insert].CopyBytes
                ? await CopyBytesAsync((IBinaryCopyConsumer)consumer, source, scope, writeTarget, handed, ct)
                : await request.RowTable.Accept(new RowTransfer(source, consumer, writer, scope, writeTarget, handed, ct));
            return new Moved(written, handed.Total, scope?.DeletedKeys?.Count);
        }
        catch (Exception ex) when (ex is not (SourceStreamException or OperationCanceledException) && !ct.IsCancellationRequested)
        {
            throw new TargetWriteException($"Writing to SomeService's database failed ({request.Insert}): {ex.Message}", ex);
        }
    }

    /// <summary>What a merge is fed (null for a reload): the keys a change fetch reports deleted, or the whole table.</summary>
    private async Task<MergeScope?> ScopeAsync(ConsumerRun source, CancellationToken ct) =>
        !Merges ? null
        : ApproachRegistry.Catalog[request.Fetch].Changes ? MergeScope.Changes(await source.ReadDeletedKeysAsync(ct))
        : MergeScope.WholeTable;

    private async Task<long?> CopyBytesAsync(IBinaryCopyConsumer consumer, ConsumerRun source, MergeScope? scope, WriteTarget writeTarget, RowCounter handed, CancellationToken ct)
    {
        await using var body = SyncMetrics.CountWritten(await consumer.OpenCopyStreamAsync(source, ct), handed);
        return await writer.WriteCopyAsync(body, scope, writeTarget, ct);
    }

    /// <summary>Rows from the consumer to the writer, counted and attributed, over the run's table's row type.</summary>
    private sealed record RowTransfer(ConsumerRun Source, IFetchConsumer Consumer, ITableWriter Writer, MergeScope? Scope, WriteTarget Target, RowCounter Handed, CancellationToken Ct)
        : IRowTableVisitor<Task<long?>>
    {
        public Task<long?> Visit<TRow>(RowTable<TRow> table)
            where TRow : class
        {
            var rows = SyncMetrics.CountWritten(SourceReads.Attributed(Consumer.ReadAsync(Source, table, Ct), Ct), Handed);
            return Writer.WriteRowsAsync(rows, Scope, table, Target, Ct);
        }
    }
}
