using Npgsql;
using SyncData.Postgres;
using SyncDataSource.Fetches;

namespace SyncDataSource.Replication;

/// <summary>The statements NpgsqlReplication runs on ordinary source connections (publication, slot removal, the first copy, heartbeats).</summary>
internal static class ReplicationSql
{
    private static readonly string CreatePublication = SendableDbContext.Embedded("replication-create-publication.sql");
    private static readonly string DropPublication = SendableDbContext.Embedded("replication-drop-publication.sql");
    private static readonly string DropSlot = SendableDbContext.Embedded("replication-drop-slot.sql");
    private static readonly string Copy = SendableDbContext.Embedded("replication-copy.sql");
    private static readonly string Heartbeat = SendableDbContext.Embedded("replication-heartbeat.sql");
    private static readonly string ImportSnapshot = SendableDbContext.Embedded("import-snapshot.sql");
    private static readonly string Precondition = SendableDbContext.Embedded("replication-precondition.sql");

    /// <summary>Why the source's server cannot decode logically (its wal_level, named); null when it can.</summary>
    public static async Task<string?> WhyNotDecodableAsync(NpgsqlDataSource source, CancellationToken ct)
    {
        await using var command = source.CreateCommand(Precondition);
        return await command.ExecuteScalarAsync(ct) as string;
    }

    /// <summary>The publication anew, for <paramref name="table"/> only (one publication per slot, named as it).</summary>
    public static async Task RecreatePublicationAsync(NpgsqlDataSource source, string slot, SyncTable table, CancellationToken ct)
    {
        await using var batch = source.CreateBatch();
        batch.BatchCommands.Add(new(DropPublication.Replace("{publication}", slot, StringComparison.Ordinal)));
        batch.BatchCommands.Add(new(CreatePublication.Replace("{publication}", slot, StringComparison.Ordinal).Replace("{table}", table.SqlName, StringComparison.Ordinal)));
        await batch.ExecuteNonQueryAsync(ct);
    }

    /// <summary>The slot and its publication, whichever exist. The slot must have no reader.</summary>
    public static async Task DropAsync(NpgsqlDataSource source, string slot, CancellationToken ct)
    {
        await using var batch = source.CreateBatch();
        batch.BatchCommands.Add(new(DropSlot) { Parameters = { new() { Value = slot } } });
        batch.BatchCommands.Add(new(DropPublication.Replace("{publication}", slot, StringComparison.Ordinal)));
        await batch.ExecuteNonQueryAsync(ct);
    }

    public static async Task EmitHeartbeatAsync(NpgsqlDataSource source, CancellationToken ct)
    {
        await using var command = source.CreateCommand(Heartbeat);
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>
    /// Every row of <paramref name="table"/> as text in its COPY column order, read in the exported
    /// <paramref name="snapshot"/> (its name checked for shape: SET TRANSACTION SNAPSHOT takes no parameter).
    /// </summary>
    public static async IAsyncEnumerable<string?[]> ReadCopyAsync(NpgsqlDataSource source, SyncTable table, string snapshot,
        [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken ct)
    {
        if (!snapshot.All(c => char.IsAsciiHexDigit(c) || c == '-'))
        {
            throw new InvalidOperationException($"The slot exported the snapshot '{snapshot}', not a snapshot name.");
        }

        await using var connection = await source.OpenConnectionAsync(ct);
        await using var transaction = await connection.BeginTransactionAsync(System.Data.IsolationLevel.RepeatableRead, ct);
        await using (var import = new NpgsqlCommand(ImportSnapshot.Replace("{0}", snapshot, StringComparison.Ordinal), connection, transaction))
        {
            await import.ExecuteNonQueryAsync(ct);
        }

        var columns = SpelledColumns(table);
        var sql = Copy.Replace("{text_columns}", string.Join(", ", columns.Select(c => $"{c}::text")), StringComparison.Ordinal)
            .Replace("{table}", table.SqlName, StringComparison.Ordinal);
        await using var command = new NpgsqlCommand(sql, connection, transaction) { CommandTimeout = 0 };
        await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SequentialAccess, ct);
        while (await reader.ReadAsync(ct))
        {
            var values = new string?[columns.Count];
            for (var i = 0; i < values.Length; i++)
            {
                values[i] = await reader.IsDBNullAsync(i, ct) ? null : reader.GetString(i);
            }

            yield return values;
        }
    }

    /// <summary>
    /// <paramref name="table"/>'s columns in COPY order (SyncTable.Columns), the order of every frame's values, as stored
    /// (as pgoutput's relation message names them): a described table's from its description, since a quoted name may hold ", ".
    /// </summary>
    public static IReadOnlyList<string> ColumnNames(SyncTable table) =>
        table.Description is { } described ? [.. described.CopyColumns.Select(c => c.Name)] : table.Columns.Split(", ");

    /// <summary>The same as SQL spells them.</summary>
    private static IReadOnlyList<string> SpelledColumns(SyncTable table) =>
        table.Description is null ? ColumnNames(table) : [.. ColumnNames(table).Select(SyncData.Postgres.Catalog.TableDescription.Quote)];
}
