using Npgsql;
using SomeService.Sync;
using SyncData.Postgres;

namespace SomeService.Insert;

/// <summary>
/// The SQL the merge writers (Linq2DBMerge, Linq2DBTempMerge, NpgsqlCopyMerge, NpgsqlCopyRawMerge) share, on the run's
/// connection and inside its transaction: the staging table, the MERGE from it, and the deletes a scope asks for
/// (<see cref="MergeScope"/>). The key's column and type are read from the catalog once per run, so the schema stays
/// their only source and the deleted keys (text) reach the key's index as its own type.
/// </summary>
internal sealed class MergeSql
{
    private static readonly string ReadKeySql = EmbeddedSql.Read("merge-read-key.sql");
    private static readonly string CreateStagingSql = EmbeddedSql.Read("merge-create-staging.sql");
    private static readonly string MergeFromStagingSql = EmbeddedSql.Read("merge-from-staging.sql");
    private static readonly string DeleteMissingSql = EmbeddedSql.Read("merge-delete-missing.sql");
    private static readonly string DeleteMissingKeysSql = EmbeddedSql.Read("merge-delete-missing-keys.sql");
    private static readonly string DeleteKeysSql = EmbeddedSql.Read("merge-delete-keys.sql");
    private static readonly string DropStagingSql = EmbeddedSql.Read("merge-drop-staging.sql");

    private readonly WriteTarget _target;
    private readonly string _key;
    private readonly string _keyType;

    private MergeSql(WriteTarget target, string key, string keyType)
    {
        _target = target;
        _key = key;
        _keyType = keyType;
    }

    /// <summary>The key's column, quoted as an identifier (NpgsqlReplication's follower finds it in each change by it).</summary>
    public string Key => _key;

    /// <summary>The staging table's name (the COPY merges' own, Linq2DBTempMerge's linq2db temp table): temporary, so no other session sees it.</summary>
    public string Staging => $"{_target.Table.Name}_merge_staging";

    /// <summary>COPY … FROM STDIN (FORMAT binary) into the staging table, in the table's COPY column order (<see cref="SyncTable.Columns"/>).</summary>
    public string CopyIntoStaging => $"COPY {Staging} ({_target.Table.Columns}) FROM STDIN (FORMAT binary)";

    /// <summary>Reads the target table's key; refuses a table without a single-column primary key.</summary>
    public static async Task<MergeSql> ForAsync(WriteTarget target, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(ReadKeySql, target.Connection, target.Transaction);
        command.Parameters.Add(new() { Value = target.Table.Name });
        var keys = new List<(string Name, string Type)>();
        await using (var reader = await command.ExecuteReaderAsync(ct))
        {
            while (await reader.ReadAsync(ct))
            {
                keys.Add((reader.GetString(0), reader.GetString(1)));
            }
        }

        return keys is [var key]
            ? new MergeSql(target, key.Name, key.Type)
            : throw new InvalidOperationException($"A merge needs {target.Table.Name} to have a primary key of one column; it has {keys.Count}.");
    }

    public Task CreateStagingAsync(CancellationToken ct) => ExecuteAsync(CreateStagingSql, null, ct);

    /// <summary>
    /// The COPY merges' end, once every row received is staged: MERGE (an unchanged row is left as it is, so its count
    /// is not the rows received), the deletes <paramref name="scope"/> asks for, the staging table dropped.
    /// </summary>
    public async Task ApplyStagedAsync(MergeScope scope, CancellationToken ct)
    {
        await ExecuteAsync(MergeFromStagingSql, null, ct);
        await DeleteAsync(scope, ct);
        await ExecuteAsync(DropStagingSql, null, ct);
    }

    /// <summary>
    /// The deletes <paramref name="scope"/> asks for, once every row the merge received is in the table named
    /// <see cref="Staging"/>: the given keys, or for a whole table every target row whose key is not staged.
    /// </summary>
    /// <returns>Rows deleted.</returns>
    public Task<int> DeleteAsync(MergeScope scope, CancellationToken ct) =>
        scope.DeletedKeys is { } deleted ? DeleteKeysAsync(deleted, ct) : ExecuteAsync(DeleteMissingSql, null, ct);

    /// <summary>The same without a staging table: <paramref name="received"/> holds the key of every row the merge received.</summary>
    public Task<int> DeleteAsync(MergeScope scope, IReadOnlyList<string> received, CancellationToken ct) =>
        scope.DeletedKeys is { } deleted ? DeleteKeysAsync(deleted, ct) : ExecuteAsync(DeleteMissingKeysSql, received, ct);

    private Task<int> DeleteKeysAsync(IReadOnlyList<string> keys, CancellationToken ct) =>
        keys.Count == 0 ? Task.FromResult(0) : ExecuteAsync(DeleteKeysSql, keys, ct);

    private async Task<int> ExecuteAsync(string template, IReadOnlyList<string>? keys, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(Fill(template), _target.Connection, _target.Transaction) { CommandTimeout = _target.CommandTimeoutSeconds };
        if (keys is not null)
        {
            command.Parameters.Add(new() { Value = keys as string[] ?? [.. keys], NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Array | NpgsqlTypes.NpgsqlDbType.Text });
        }

        return await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>The statement for this table. Identifiers only, from the catalog and SyncTable, never from a request; values go as parameters.</summary>
    private string Fill(string template)
    {
        var columns = _target.Table.Columns.Split(", ");
        return template
            .Replace("{table}", _target.Table.Name, StringComparison.Ordinal)
            .Replace("{staging}", Staging, StringComparison.Ordinal)
            .Replace("{key}", _key, StringComparison.Ordinal)
            .Replace("{key_type}", _keyType, StringComparison.Ordinal)
            .Replace("{columns}", _target.Table.Columns, StringComparison.Ordinal)
            .Replace("{staged_columns}", string.Join(", ", columns.Select(c => $"s.{c}")), StringComparison.Ordinal)
            .Replace("{assignments}", string.Join(", ", columns.Where(c => c != _key).Select(c => $"{c} = s.{c}")), StringComparison.Ordinal);
    }

}
