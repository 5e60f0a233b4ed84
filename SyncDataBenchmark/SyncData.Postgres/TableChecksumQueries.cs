using SyncData.Shared;

namespace SyncData.Postgres;

public static class TableChecksumQueries
{
    /// <summary>Reads <paramref name="table"/>'s count and checksum on this connection (inside <paramref name="transaction"/> if given).</summary>
    public static async Task<TableChecksum> ReadChecksumAsync(this Npgsql.NpgsqlConnection connection, SyncTable table, Npgsql.NpgsqlTransaction? transaction, CancellationToken ct)
    {
        return await connection.ReadChecksumAsync(table.ChecksumSql, transaction, ct);
    }

    /// <summary>Reads a described table's count and checksum over every column (<see cref="Catalog.TableDescription.ChecksumSql"/>).</summary>
    public static Task<TableChecksum> ReadChecksumAsync(this Npgsql.NpgsqlConnection connection, Catalog.TableDescription table, Npgsql.NpgsqlTransaction? transaction, CancellationToken ct) =>
        connection.ReadChecksumAsync(table.ChecksumSql, transaction, ct);

    private static async Task<TableChecksum> ReadChecksumAsync(this Npgsql.NpgsqlConnection connection, string checksumSql, Npgsql.NpgsqlTransaction? transaction, CancellationToken ct)
    {
        await using var command = new Npgsql.NpgsqlCommand(checksumSql, connection, transaction) { CommandTimeout = 0 };
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return new TableChecksum(reader.GetInt64(0), reader.GetString(1));
    }
}
