using Npgsql;
using SomeService.Insert;
using SomeService.Sync;
using SyncData.Postgres;

namespace SomeService.Follow;

/// <summary>
/// NpgsqlReplication's writer: a batch of whole source transactions into the target in ONE transaction, with the LSN
/// they bring the table up to (replication_watermarks) in the same transaction. The upserts go through a staging table
/// (COPY text, the form the changes arrive in) and one MERGE that keeps the columns pgoutput left unchanged ('u'); the
/// deletes through MergeSql's delete of keys, as the change merges do.
/// </summary>
internal sealed class ChangeApplier(SyncTable table, string slot, int commandTimeoutSeconds)
{
    private static readonly string CreateStagingSql = EmbeddedSql.Read("follow-create-staging.sql");
    private static readonly string MergeSqlText = EmbeddedSql.Read("follow-merge.sql");
    private static readonly string ReadLsnSql = EmbeddedSql.Read("follow-read-lsn.sql");
    private static readonly string WriteLsnSql = EmbeddedSql.Read("follow-write-lsn.sql");
    private static readonly string WalSql = EmbeddedSql.Read("follow-wal.sql");
    private static readonly string AsyncCommitSql = EmbeddedSql.Read("follow-async-commit.sql");

    private readonly string[] _columns = table.Columns.Split(", ");

    private string Staging => $"{table.Name}_follow_staging";

    /// <summary>The LSN the target's table is up to date with on this slot, or null (start anew).</summary>
    public async Task<string?> ReadLsnAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(ReadLsnSql, connection);
        command.Parameters.Add(new() { Value = table.Name });
        command.Parameters.Add(new() { Value = slot });
        return await command.ExecuteScalarAsync(ct) as string;
    }

    /// <summary>The table's key column and its position in the COPY order (read once from the catalog, as the merges do).</summary>
    public async Task<(string Key, int Position)> ReadKeyAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        await using var transaction = await connection.BeginTransactionAsync(ct);
        var merge = await MergeSql.ForAsync(new WriteTarget(table, connection, transaction, 1, commandTimeoutSeconds), ct);
        await transaction.CommitAsync(ct);
        var position = Array.IndexOf(_columns, merge.Key);
        return position >= 0 ? (merge.Key, position) : throw new InvalidOperationException($"{table.Name}'s key {merge.Key} is not among its COPY columns.");
    }

    public async Task CreateStagingAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(Fill(CreateStagingSql, ""), connection);
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
        await using (var truncate = new NpgsqlCommand($"truncate {table.Name}", connection, transaction))
        {
            await truncate.ExecuteNonQueryAsync(ct);
        }

        long copied = 0;
        await using (var writer = await connection.BeginTextImportAsync($"COPY {table.Name} ({table.Columns}) FROM STDIN", ct))
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

    /// <summary>One batch: deletes, upserts, the LSN; committed together or not at all. Returns when its transaction began and when its commit returned (the apply stage).</summary>
    public async Task<(DateTimeOffset Began, DateTimeOffset Committed)> ApplyAsync(NpgsqlConnection connection, ChangeBatch batch, CancellationToken ct)
    {
        var began = DateTimeOffset.UtcNow;
        await using var transaction = await connection.BeginTransactionAsync(ct);
        var target = new WriteTarget(table, connection, transaction, 1, commandTimeoutSeconds);
        var merge = await MergeSql.ForAsync(target, ct);
        await merge.DeleteAsync(MergeScope.Changes([.. batch.DeletedKeys]), ct);
        var staged = 0;
        await using (var writer = await connection.BeginTextImportAsync($"COPY {Staging} ({table.Columns}, _unchanged) FROM STDIN", ct))
        {
            foreach (var row in batch.Upserts)
            {
                await writer.WriteAsync(CopyText.Line(row.Values, row.Unchanged, withUnchanged: true));
                staged++;
            }
        }

        if (staged > 0)
        {
            await using var command = new NpgsqlCommand(Fill(MergeSqlText, merge.Key), connection, transaction) { CommandTimeout = commandTimeoutSeconds };
            var merged = await command.ExecuteNonQueryAsync(ct);
            if (merged != staged)
            {
                throw new InvalidOperationException(
                    $"{staged - merged} of {staged} rows were updates whose TOASTed values pgoutput did not send ('u'), of keys the target does not hold: their values cannot be known.");
            }
        }

        await WriteLsnAsync(connection, transaction, batch.Lsn!, batch.LastCommit, ct);
        await transaction.CommitAsync(CancellationToken.None);
        return (began, DateTimeOffset.UtcNow);
    }

    private async Task WriteLsnAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, string lsn, DateTimeOffset? committedAt, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(WriteLsnSql, connection, transaction);
        command.Parameters.Add(new() { Value = table.Name });
        command.Parameters.Add(new() { Value = slot });
        command.Parameters.Add(new() { Value = lsn });
        command.Parameters.Add(new() { Value = committedAt.HasValue ? committedAt.Value : DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.TimestampTz });
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>Identifiers only, from SyncTable and the catalog; an unchanged column keeps the target's value.</summary>
    private string Fill(string template, string key) =>
        template.Replace("{table}", table.Name, StringComparison.Ordinal)
            .Replace("{staging}", Staging, StringComparison.Ordinal)
            .Replace("{key}", key, StringComparison.Ordinal)
            .Replace("{columns}", table.Columns, StringComparison.Ordinal)
            .Replace("{staged_columns}", string.Join(", ", _columns.Select(c => $"s.{c}")), StringComparison.Ordinal)
            .Replace("{assignments}", string.Join(", ", _columns.Select((c, i) => (c, i)).Where(x => x.c != key)
                .Select(x => $"{x.c} = case when {x.i} = any (s._unchanged) then t.{x.c} else s.{x.c} end")), StringComparison.Ordinal);
}
