using Npgsql;
using SomeService.Sync;
using SyncData.Postgres;

namespace SomeService.Follow;

/// <summary>
/// NpgsqlReplication's writer: a batch of whole source transactions into the target in ONE transaction, with the LSN
/// they bring the table up to (replication_watermarks) in the same transaction. A batch of up to
/// <see cref="OneStatementRows"/> rows goes in one round trip (<see cref="ApplyAsync"/>: one NpgsqlBatch, PostgreSQL's
/// implicit transaction: the WAL positions for the FlushGate, the delete of keys, a MERGE from the values as text arrays
/// cast by unnest, the LSN); a larger one through a staging table (COPY text, the form the changes arrive in) and the
/// same MERGE. Either MERGE keeps the columns pgoutput left unchanged ('u'). The relation's facts (key, column types,
/// the statements) are read once per follower connection (<see cref="PrepareAsync"/>).
/// </summary>
internal sealed class ChangeApplier(SyncTable table, string slot, int commandTimeoutSeconds)
{
    private static readonly string CreateStagingSql = EmbeddedSql.Read("follow-create-staging.sql");
    private static readonly string MergeSqlText = EmbeddedSql.Read("follow-merge.sql");
    private static readonly string ReadLsnSql = EmbeddedSql.Read("follow-read-lsn.sql");
    private static readonly string WriteLsnSql = EmbeddedSql.Read("follow-write-lsn.sql");
    private static readonly string WalSql = EmbeddedSql.Read("follow-wal.sql");
    private static readonly string AsyncCommitSql = EmbeddedSql.Read("follow-async-commit.sql");
    private static readonly string DeleteKeysSql = EmbeddedSql.Read("follow-delete-keys.sql");

    /// <summary>
    /// The most rows a batch applies in its one statement; more go through COPY and the staging table. Not a measured
    /// crossover: the follow matrix's batches at 1,000 rows/s hold a few rows, far below it; a large source transaction is
    /// the staging road's.
    /// </summary>
    public const int OneStatementRows = 1_000;

    private FollowedRelation? _relation;
    private string? _unnestMerge;
    private string? _stagedMerge;
    private string? _deleteKeys;

    private FollowedRelation Relation => _relation ?? throw new InvalidOperationException("The follower's relation was not read (PrepareAsync).");

    /// <summary>A temporary table, so no other session sees it; a described table's is one fixed name, since its own may be anything (schema, quotes, spaces).</summary>
    private string Staging => table.Description is null ? $"{table.Name}_follow_staging" : "syncdata_follow_staging";

    /// <summary>The LSN the target's table is up to date with on this slot, or null (start anew).</summary>
    public async Task<string?> ReadLsnAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(ReadLsnSql, connection);
        command.Parameters.Add(new() { Value = table.Name });
        command.Parameters.Add(new() { Value = slot });
        return await command.ExecuteScalarAsync(ct) as string;
    }

    /// <summary>
    /// The relation's facts, once per follower connection (<see cref="FollowedRelation"/>): its whole key's positions in
    /// the COPY order (as a batch folds changes by them), and the statements built from them.
    /// </summary>
    public async Task<int[]> PrepareAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        _relation = await FollowedRelation.ReadAsync(table, connection, ct);
        _unnestMerge = _relation.Fill(MergeSqlText.Replace("{staging}", _relation.UnnestSource(), StringComparison.Ordinal), Staging);
        _stagedMerge = _relation.Fill(MergeSqlText, Staging);
        _deleteKeys = _relation.Fill(DeleteKeysSql, Staging);
        return _relation.KeyPositions;
    }

    public async Task CreateStagingAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(Relation.Fill(CreateStagingSql, Staging), connection);
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>From here on the connection's commits do not wait for their flush (follow-async-commit.sql; FlushGate says what that asks of the acknowledgements).</summary>
    public async Task CommitAsynchronouslyAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(AsyncCommitSql, connection);
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>The target's WAL insert position (past every commit so far) and its flushed position.</summary>
    public async Task<(NpgsqlTypes.NpgsqlLogSequenceNumber Written, NpgsqlTypes.NpgsqlLogSequenceNumber Flushed)> WalAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(WalSql, connection);
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return (reader.GetFieldValue<NpgsqlTypes.NpgsqlLogSequenceNumber>(0), reader.GetFieldValue<NpgsqlTypes.NpgsqlLogSequenceNumber>(1));
    }

    /// <summary>The first copy's transaction: the target emptied, every row of the copy, the slot's consistent point stored.</summary>
    public async Task<long> CopyAsync(NpgsqlConnection connection, IAsyncEnumerable<string?[]> rows, Func<string> consistentPoint, CancellationToken ct)
    {
        await using var transaction = await connection.BeginTransactionAsync(ct);
        await using (var truncate = new NpgsqlCommand($"truncate {table.SqlName}", connection, transaction))
        {
            await truncate.ExecuteNonQueryAsync(ct);
        }

        long copied = 0;
        await using (var writer = await connection.BeginTextImportAsync($"COPY {table.SqlName} ({table.Columns}) FROM STDIN", ct))
        {
            await foreach (var row in rows.WithCancellation(ct))
            {
                await writer.WriteAsync(CopyText.Line(row, null));
                copied++;
            }
        }

        await WriteLsnAsync(connection, transaction, consistentPoint(), null, ct);
        await transaction.CommitAsync(CancellationToken.None);
        return copied;
    }

    /// <summary>
    /// One batch: deletes, upserts, the LSN; committed together or not at all. Returns when its transaction began and when
    /// its commit returned (the apply stage), and the target's WAL positions read at its start (after every earlier commit).
    /// </summary>
    public Task<Applied> ApplyAsync(NpgsqlConnection connection, ChangeBatch batch, CancellationToken ct)
    {
        var upserts = batch.Upserts.ToList();
        return upserts.Count <= OneStatementRows ? ApplyInOneAsync(connection, batch, upserts, ct) : ApplyStagedAsync(connection, batch, upserts, ct);
    }

    /// <summary>What a batch's apply answers: its transaction's begin and commit, and the WAL positions read before it wrote.</summary>
    public readonly record struct Applied(DateTimeOffset Began, DateTimeOffset Committed, NpgsqlTypes.NpgsqlLogSequenceNumber Written, NpgsqlTypes.NpgsqlLogSequenceNumber Flushed);

    /// <summary>The batch as one prepared NpgsqlBatch: one round trip, committed by PostgreSQL at its end (an implicit transaction).</summary>
    private async Task<Applied> ApplyInOneAsync(NpgsqlConnection connection, ChangeBatch batch, List<ChangeBatch.PendingRow> upserts, CancellationToken ct)
    {
        var began = DateTimeOffset.UtcNow;
        await using var statements = new NpgsqlBatch(connection) { Timeout = commandTimeoutSeconds };
        statements.BatchCommands.Add(new NpgsqlBatchCommand(WalSql));
        if (DeleteKeys(batch) is { } delete)
        {
            statements.BatchCommands.Add(delete);
        }

        var merge = upserts.Count > 0 ? UnnestMerge(upserts) : null;
        if (merge is not null)
        {
            statements.BatchCommands.Add(merge);
        }

        var lsn = new NpgsqlBatchCommand(WriteLsnSql);
        AddLsnParameters(lsn.Parameters, batch.Lsn!, batch.LastCommit);
        statements.BatchCommands.Add(lsn);
        // Prepared on the follower's connection, once per statement text (later batches find it prepared, no round trip):
        // PostgreSQL no longer parses and plans the MERGE for every small batch, as the native apply worker parses nothing.
        await statements.PrepareAsync(ct);
        NpgsqlTypes.NpgsqlLogSequenceNumber written, flushed;
        await using (var reader = await statements.ExecuteReaderAsync(ct))
        {
            await reader.ReadAsync(ct);
            (written, flushed) = (reader.GetFieldValue<NpgsqlTypes.NpgsqlLogSequenceNumber>(0), reader.GetFieldValue<NpgsqlTypes.NpgsqlLogSequenceNumber>(1));
            while (await reader.NextResultAsync(ct))
            {
            }
        }

        if (merge is not null && merge.RecordsAffected != upserts.Count)
        {
            throw UnknownValues(upserts.Count, merge.RecordsAffected);
        }

        return new Applied(began, DateTimeOffset.UtcNow, written, flushed);
    }

    /// <summary>The upserts as one MERGE from unnest: a text array per column, and each row's unchanged TOAST columns.</summary>
    private NpgsqlBatchCommand UnnestMerge(List<ChangeBatch.PendingRow> upserts)
    {
        var merge = new NpgsqlBatchCommand(_unnestMerge!);
        for (var column = 0; column < Relation.Columns.Count; column++)
        {
            var values = new string?[upserts.Count];
            for (var row = 0; row < values.Length; row++)
            {
                values[row] = upserts[row].Values[column];
            }

            merge.Parameters.Add(new() { Value = values, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Array | NpgsqlTypes.NpgsqlDbType.Text });
        }

        merge.Parameters.Add(new() { Value = upserts.Select(r => r.Unchanged is { } u ? "{" + string.Join(',', u) + "}" : null).ToArray(), NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Array | NpgsqlTypes.NpgsqlDbType.Text });
        return merge;
    }

    /// <summary>A large batch: the deletes, a COPY into the staging table and one MERGE from it, the LSN, in one transaction.</summary>
    private async Task<Applied> ApplyStagedAsync(NpgsqlConnection connection, ChangeBatch batch, List<ChangeBatch.PendingRow> upserts, CancellationToken ct)
    {
        var began = DateTimeOffset.UtcNow;
        var (written, flushed) = await WalAsync(connection, ct);
        await using var transaction = await connection.BeginTransactionAsync(ct);
        if (batch.DeletedKeys.ToList() is { Count: > 0 } deleted)
        {
            await using var command = new NpgsqlCommand(_deleteKeys!, connection, transaction) { CommandTimeout = commandTimeoutSeconds };
            AddKeys(command.Parameters, deleted);
            await command.ExecuteNonQueryAsync(ct);
        }

        await using (var writer = await connection.BeginTextImportAsync($"COPY {Staging} ({table.Columns}, _unchanged) FROM STDIN", ct))
        {
            foreach (var row in upserts)
            {
                await writer.WriteAsync(CopyText.Line(row.Values, row.Unchanged, withUnchanged: true));
            }
        }

        if (upserts.Count > 0)
        {
            await using var command = new NpgsqlCommand(_stagedMerge!, connection, transaction) { CommandTimeout = commandTimeoutSeconds };
            var merged = await command.ExecuteNonQueryAsync(ct);
            if (merged != upserts.Count)
            {
                throw UnknownValues(upserts.Count, merged);
            }
        }

        await WriteLsnAsync(connection, transaction, batch.Lsn!, batch.LastCommit, ct);
        await transaction.CommitAsync(CancellationToken.None);
        return new Applied(began, DateTimeOffset.UtcNow, written, flushed);
    }

    private static InvalidOperationException UnknownValues(int staged, int merged) => new(
        $"{staged - merged} of {staged} rows were updates whose TOASTed values pgoutput did not send ('u'), of keys the target does not hold: their values cannot be known.");

    private async Task WriteLsnAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, string lsn, DateTimeOffset? committedAt, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(WriteLsnSql, connection, transaction);
        AddLsnParameters(command.Parameters, lsn, committedAt);
        await command.ExecuteNonQueryAsync(ct);
    }

    private void AddLsnParameters(NpgsqlParameterCollection parameters, string lsn, DateTimeOffset? committedAt)
    {
        parameters.Add(new() { Value = table.Name });
        parameters.Add(new() { Value = slot });
        parameters.Add(new() { Value = lsn });
        parameters.Add(new() { Value = committedAt.HasValue ? committedAt.Value : DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.TimestampTz });
    }

    /// <summary>The batch's deleted keys as one statement (<see cref="FollowedRelation"/>); null when none.</summary>
    private NpgsqlBatchCommand? DeleteKeys(ChangeBatch batch)
    {
        var deleted = batch.DeletedKeys.ToList();
        if (deleted.Count == 0)
        {
            return null;
        }

        var delete = new NpgsqlBatchCommand(_deleteKeys!);
        AddKeys(delete.Parameters, deleted);
        return delete;
    }

    /// <summary>The deleted keys as parameters: a text array per key column, in <see cref="FollowedRelation.KeyPositions"/>' order.</summary>
    private void AddKeys(NpgsqlParameterCollection parameters, List<string[]> deleted)
    {
        for (var column = 0; column < Relation.KeyPositions.Length; column++)
        {
            parameters.Add(new() { Value = deleted.Select(k => k[column]).ToArray(), NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Array | NpgsqlTypes.NpgsqlDbType.Text });
        }
    }
}
