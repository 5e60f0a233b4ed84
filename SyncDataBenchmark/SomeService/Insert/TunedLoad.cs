using Npgsql;
using SomeService.Sync;
using SyncData.Postgres;

namespace SomeService.Insert;

/// <summary>
/// The PostgreSQL manual's "Populating a Database" advice around one COPY, shared by the tuned writers (rows through
/// the binary importer, or the source's COPY bytes relayed), all inside the run's one transaction (which the runner has
/// already used to truncate the table): drop the primary key, raise maintenance_work_mem for this transaction, COPY …
/// (FORMAT binary, FREEZE), re-add the key (one sorted index build instead of an index insertion per row). FREEZE is
/// allowed because the table was truncated in this transaction; the rows are written already frozen, so no later
/// VACUUM has to rewrite them. Any failure, the re-add's included, propagates: the run rolls back the whole
/// transaction, the key's drop with it.
/// The key's name and definition are read from the catalog at run time, so the schema's migrations stay its only source.
/// Costs the run's role ownership of the table (ALTER TABLE), an ACCESS EXCLUSIVE lock until commit, and fails if a
/// foreign key points at this key (docs/peers.md, "The peers and the tuned approach").
/// </summary>
internal static class TunedLoad
{
    /// <summary>The table's CopyInBinary with FREEZE; built from the same name and columns, so the column order cannot drift.</summary>
    private static string CopyInBinaryFreeze(SyncTable table) => $"COPY {table.SqlName} ({table.Columns}) FROM STDIN (FORMAT binary, FREEZE)";

    private static readonly string ReadPrimaryKeySql = EmbeddedSql.Read("tuned-read-primary-key.sql");
    private static readonly string DropPrimaryKeySql = EmbeddedSql.Read("tuned-drop-primary-key.sql");
    private static readonly string AddPrimaryKeySql = EmbeddedSql.Read("tuned-add-primary-key.sql");
    private static readonly string SettingsSql = EmbeddedSql.Read("tuned-settings.sql");

    /// <summary>Prepares the target, runs <paramref name="copy"/> with the COPY … FREEZE command it must use, then re-adds the key.</summary>
    /// <returns>What <paramref name="copy"/> returned: rows written, or null when it cannot count them.</returns>
    public static async Task<long?> CopyAsync(WriteTarget target, Func<string, Task<long?>> copy, CancellationToken ct)
    {
        var primaryKey = await ReadPrimaryKeyAsync(target, ct);
        if (primaryKey is not null)
        {
            await ExecuteAsync(target, primaryKey.Fill(DropPrimaryKeySql, target.Table), ct);
        }

        await ExecuteAsync(target, SettingsSql, ct);
        var written = await copy(CopyInBinaryFreeze(target.Table));
        if (primaryKey is not null)
        {
            await ExecuteAsync(target, primaryKey.Fill(AddPrimaryKeySql, target.Table), ct);
        }

        return written;
    }

    /// <summary>The key as PostgreSQL prints it: an identifier already quoted (quote_ident) and its definition (pg_get_constraintdef).</summary>
    private sealed record PrimaryKey(string QuotedName, string Definition)
    {
        // ALTER TABLE takes no parameters: the values come from the catalog, not from a request.
        public string Fill(string template, SyncTable table) => template
            .Replace("{table}", table.SqlName, StringComparison.Ordinal)
            .Replace("{name}", QuotedName, StringComparison.Ordinal)
            .Replace("{definition}", Definition, StringComparison.Ordinal);
    }

    private static async Task<PrimaryKey?> ReadPrimaryKeyAsync(WriteTarget target, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(ReadPrimaryKeySql, target.Connection, target.Transaction);
        command.Parameters.Add(new() { Value = target.Table.SqlName });
        await using var reader = await command.ExecuteReaderAsync(ct);
        return await reader.ReadAsync(ct) ? new PrimaryKey(reader.GetString(0), reader.GetString(1)) : null;
    }

    private static async Task ExecuteAsync(WriteTarget target, string sql, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, target.Connection, target.Transaction) { CommandTimeout = target.CommandTimeoutSeconds };
        await command.ExecuteNonQueryAsync(ct);
    }

}
