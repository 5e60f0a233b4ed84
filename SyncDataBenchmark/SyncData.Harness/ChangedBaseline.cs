using System.Data;
using Npgsql;
using SyncData.Postgres;

namespace SyncData.Harness;

/// <summary>
/// Untimed, before a run in changed mode (issue 39): the target made equal to the source at one instant, with that
/// instant stored as its watermark (as a verified sync leaves it), then a share of the source changed. A change sync
/// then has exactly those changes to bring over, and a reload the whole table.
/// </summary>
public static class ChangedBaseline
{
    private static readonly string CurrentSnapshotSql = SqlScripts.Read("Changes/current-snapshot.sql");
    private static readonly string StoreWatermarkSql = SqlScripts.Read("Changes/store-watermark.sql");

    /// <summary>
    /// <see cref="CopyWithWatermarkAsync"/>, then change_&lt;table&gt;(<paramref name="share"/>, <paramref name="seed"/>)
    /// on the source (sql/changes.sql: round(share × rows) rows, at least one, 70% updates / 20% inserts / 10% deletes).
    /// </summary>
    public static async Task<ChangeCounts> PrepareAsync(NpgsqlDataSource source, NpgsqlDataSource target, SyncTable table, double share, int seed, CancellationToken ct)
    {
        await CopyWithWatermarkAsync(source, target, table, ct);
        return await ChangeSourceAsync(source, table, share, seed, ct);
    }

    /// <summary>
    /// In one REPEATABLE READ transaction on the source: its snapshot (the watermark), its checksum and a raw binary COPY
    /// out into the target's table (emptied first), checked equal and committed with the watermark in sync_watermarks.
    /// Returns the watermark.
    /// </summary>
    public static async Task<string> CopyWithWatermarkAsync(NpgsqlDataSource source, NpgsqlDataSource target, SyncTable table, CancellationToken ct)
    {
        await using var sourceConnection = await source.OpenConnectionAsync(ct);
        await using var read = await sourceConnection.BeginTransactionAsync(IsolationLevel.RepeatableRead, ct);
        var watermark = (string)(await ScalarAsync(sourceConnection, read, CurrentSnapshotSql, [], ct))!;
        var sourceChecksum = await sourceConnection.ReadChecksumAsync(table, read, ct);

        await using var targetConnection = await target.OpenConnectionAsync(ct);
        await using var write = await targetConnection.BeginTransactionAsync(ct);
        await ScalarAsync(targetConnection, write, $"truncate {table.Name}", [], ct);
        await CopyAsync(sourceConnection, targetConnection, table, ct);
        var copied = await targetConnection.ReadChecksumAsync(table, write, ct);
        if (copied != sourceChecksum)
        {
            throw new InvalidOperationException(
                $"The baseline copy of {table.Name} differs from the source at {watermark}: {copied} against {sourceChecksum}.");
        }

        await ScalarAsync(targetConnection, write, StoreWatermarkSql, [table.Name, watermark], ct);
        await write.CommitAsync(ct);
        await read.CommitAsync(ct);
        // Fresh statistics, as after a reload: a merge's plans should not depend on what the table held before.
        await ScalarAsync(targetConnection, null, $"analyze {table.Name}", [], ct);
        return watermark;
    }

    /// <summary>change_&lt;table&gt;(share, seed) on the source, committed (Tables/&lt;table&gt;/change.sql).</summary>
    public static async Task<ChangeCounts> ChangeSourceAsync(NpgsqlDataSource source, SyncTable table, double share, int seed, CancellationToken ct)
    {
        await using var connection = await source.OpenConnectionAsync(ct);
        await using var command = new NpgsqlCommand(SqlScripts.ForTable(table, "change.sql"), connection) { CommandTimeout = 0 };
        command.Parameters.Add(new() { Value = share });
        command.Parameters.Add(new() { Value = seed });
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return new ChangeCounts(reader.GetInt64(0), reader.GetInt64(1), reader.GetInt64(2));
    }

    /// <summary>The source's rows as PostgreSQL's binary COPY bytes, unparsed, into the target; cancelled on failure (a raw COPY in commits on Dispose).</summary>
    private static async Task CopyAsync(NpgsqlConnection sourceConnection, NpgsqlConnection targetConnection, SyncTable table, CancellationToken ct)
    {
        await using var output = await sourceConnection.BeginRawBinaryCopyAsync(table.CopyOutBinary, ct);
        await using var input = await targetConnection.BeginRawBinaryCopyAsync(table.CopyInBinary, ct);
        try
        {
            await output.CopyToAsync(input, ct);
        }
        catch
        {
            await input.CancelAsync();
            throw;
        }
    }

    private static async Task<object?> ScalarAsync(NpgsqlConnection connection, NpgsqlTransaction? transaction, string sql, IReadOnlyList<object> parameters, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, connection, transaction) { CommandTimeout = 0 };
        foreach (var parameter in parameters)
        {
            command.Parameters.Add(new() { Value = parameter });
        }

        return await command.ExecuteScalarAsync(ct);
    }
}
