using Npgsql;
using SomeService.Sync;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;

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
    private readonly IReadOnlyList<(string Name, string Type)> _keys;

    /// <summary>The key's columns as the catalog names them, unquoted, in key order.</summary>
    public IReadOnlyList<string> KeyColumns { get; }

    private MergeSql(WriteTarget target, IReadOnlyList<(string Name, string Type)> keys, IReadOnlyList<string> keyColumns)
    {
        _target = target;
        _keys = keys;
        KeyColumns = keyColumns;
    }

    /// <summary>
    /// The staging table's name (the COPY merges' own, Linq2DBTempMerge's linq2db temp table): temporary, so no other
    /// session sees it. A described table's is one fixed name, since its own name may be anything (schema, quotes,
    /// spaces) and a run merges one table; a name SQL need not quote, as linq2db quotes a name it is given again.
    /// </summary>
    public string Staging => _target.Table.Description is null ? $"{_target.Table.Name}_merge_staging" : "syncdata_merge_staging";

    /// <summary>COPY … FROM STDIN (FORMAT binary) into the staging table, in the table's COPY column order (<see cref="SyncTable.Columns"/>).</summary>
    public string CopyIntoStaging => $"COPY {Staging} ({_target.Table.Columns}) FROM STDIN (FORMAT binary)";

    /// <summary>Reads the target table's primary key, its columns in order; refuses a table without one.</summary>
    public static async Task<MergeSql> ForAsync(WriteTarget target, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(ReadKeySql, target.Connection, target.Transaction);
        command.Parameters.Add(new() { Value = target.Table.SqlName });
        var keys = new List<(string Name, string Type)>();
        var columns = new List<string>();
        await using (var reader = await command.ExecuteReaderAsync(ct))
        {
            while (await reader.ReadAsync(ct))
            {
                // Spelled as the table's COPY column list spells it (SyncTable.Columns), so the key is found in it.
                var name = target.Table.Description is null ? reader.GetString(0) : TableDescription.Quote(reader.GetString(1));
                keys.Add((name, reader.GetString(2)));
                columns.Add(reader.GetString(1));
            }
        }

        return keys.Count > 0
            ? new MergeSql(target, keys, columns)
            : throw new InvalidOperationException($"A merge needs {target.Table.SqlName} to have a primary key; it has none.");
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

    /// <summary>
    /// The same without a staging table: <paramref name="received"/> holds, per key column in <see cref="KeyColumns"/>'
    /// order, its value in every row the merge received (an array of the row class's CLR type), so the whole key is matched.
    /// </summary>
    public async Task<int> DeleteAsync(MergeScope scope, IReadOnlyList<Array> received, CancellationToken ct)
    {
        if (scope.DeletedKeys is { } deleted)
        {
            return await DeleteKeysAsync(deleted, ct);
        }

        var numbered = _keys.Select((k, i) => (Parameter: $"${i + 1}::{k.Type}[]", Column: $"k{i}", Match: $"k.k{i} = t.{k.Name}")).ToList();
        var sql = Fill(DeleteMissingKeysSql)
            .Replace("{received}", string.Join(", ", numbered.Select(n => n.Parameter)), StringComparison.Ordinal)
            .Replace("{received_columns}", string.Join(", ", numbered.Select(n => n.Column)), StringComparison.Ordinal)
            .Replace("{received_match}", string.Join(" and ", numbered.Select(n => n.Match)), StringComparison.Ordinal);
        await using var command = new NpgsqlCommand(sql, _target.Connection, _target.Transaction) { CommandTimeout = _target.CommandTimeoutSeconds };
        foreach (var values in received)
        {
            command.Parameters.Add(new() { Value = values });
        }

        return await command.ExecuteNonQueryAsync(ct);
    }

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
        var keyNames = _keys.Select(k => k.Name).ToHashSet(StringComparer.Ordinal);
        // A column the MERGE may not set: the key's (it matched) and, for a described table, the generated (computed)
        // and GENERATED ALWAYS identity ones (only to DEFAULT; DescribedTableReach refuses one outside the key).
        var described = _target.Table.Description?.CopyColumns ?? [];
        var always = described.Where(c => c.Identity == "a").Select(c => TableDescription.Quote(c.Name)).ToHashSet(StringComparer.Ordinal);
        var assigned = columns.Where(c => !keyNames.Contains(c) && !always.Contains(c)).ToList();
        var single = template.Contains("{key}", StringComparison.Ordinal) ? SingleKey : default;
        return template
            .Replace("{table}", _target.Table.SqlName, StringComparison.Ordinal)
            .Replace("{staging}", Staging, StringComparison.Ordinal)
            .Replace("{key}", single.Name, StringComparison.Ordinal)
            .Replace("{key_type}", single.Type, StringComparison.Ordinal)
            .Replace("{key_match}", string.Join(" and ", _keys.Select(k => $"s.{k.Name} = t.{k.Name}")), StringComparison.Ordinal)
            .Replace("{columns}", _target.Table.Columns, StringComparison.Ordinal)
            .Replace("{target_columns}", string.Join(", ", columns.Select(c => $"t.{c}")), StringComparison.Ordinal)
            .Replace("{staged_columns}", string.Join(", ", columns.Select(c => $"s.{c}")), StringComparison.Ordinal)
            // Every column in the key: rows equal by key are equal, so the update is never reached; it sets the key to itself.
            .Replace("{assignments}", string.Join(", ", (assigned.Count > 0 ? assigned : [_keys[0].Name]).Select(c => $"{c} = s.{c}")), StringComparison.Ordinal)
            .Replace("{overriding}", always.Count > 0 ? "overriding system value " : "", StringComparison.Ordinal);
    }

    /// <summary>The key of a statement that takes one key column (a change merge's deletes by key as text); a composite key cannot be given as one text.</summary>
    private (string Name, string Type) SingleKey =>
        _keys is [var key] ? key
        : throw new InvalidOperationException($"{_target.Table.SqlName}'s primary key has {_keys.Count} columns; deletes by key as text take one (a change merge).");
}
