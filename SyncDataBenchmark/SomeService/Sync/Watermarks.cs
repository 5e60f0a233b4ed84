using Npgsql;
using SyncData.Postgres;

namespace SomeService.Sync;

/// <summary>
/// The target's sync_watermarks (sql/schema.sql), read and written only inside a run's transaction: after any verified
/// run the target's table equals the source at the snapshot stored for it, which the next change fetch asks from.
/// </summary>
internal static class Watermarks
{
    private static readonly string ReadSql = EmbeddedSql.Read("read-watermark.sql");
    private static readonly string WriteSql = EmbeddedSql.Read("write-watermark.sql");

    /// <summary>The table's watermark (pg_snapshot text), or null when no verified run has stored one.</summary>
    public static async Task<string?> ReadAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, SyncTable table, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(ReadSql, connection, transaction);
        command.Parameters.Add(new() { Value = table.Name });
        return await command.ExecuteScalarAsync(ct) as string;
    }

    /// <param name="snapshot">The run's source snapshot as pg_current_snapshot() printed it (SourceSnapshot.Visible).</param>
    public static async Task WriteAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, SyncTable table, string snapshot, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(WriteSql, connection, transaction);
        command.Parameters.Add(new() { Value = table.Name });
        command.Parameters.Add(new() { Value = snapshot });
        await command.ExecuteNonQueryAsync(ct);
    }
}
