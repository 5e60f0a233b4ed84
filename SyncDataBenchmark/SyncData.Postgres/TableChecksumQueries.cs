using SyncData.Shared;

namespace SyncData.Postgres;

public static class TableChecksumQueries
{
    /// <summary>Reads <paramref name="table"/>'s count and checksum on this connection (inside <paramref name="transaction"/> if given).</summary>
    public static async Task<TableChecksum> ReadChecksumAsync(this Npgsql.NpgsqlConnection connection, SyncTable table, Npgsql.NpgsqlTransaction? transaction, CancellationToken ct)
    {
        await using var command = new Npgsql.NpgsqlCommand(table.ChecksumSql, connection, transaction) { CommandTimeout = 0 };
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return new TableChecksum(reader.GetInt64(0), reader.GetString(1));
    }
}
