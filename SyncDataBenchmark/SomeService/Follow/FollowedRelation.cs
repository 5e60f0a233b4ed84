using Npgsql;
using SomeService.Sync;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;

namespace SomeService.Follow;

/// <summary>
/// The followed table's facts, read from the target's catalog once per follower connection: its COPY columns in the
/// order every frame's values come in (as stored and as SQL spells them), each one's type, the positions of its whole
/// primary key, and the SQL the applier fills from them. A change is found by every key column (a composite key as
/// readings' three), never by the first alone.
/// </summary>
internal sealed class FollowedRelation
{
    private static readonly string ColumnsSql = EmbeddedSql.Read("follow-columns.sql");

    private readonly SyncTable _table;
    private readonly bool[] _always;

    private FollowedRelation(SyncTable table, IReadOnlyList<string> columns, IReadOnlyList<string> types, int[] keyPositions, bool[] always)
    {
        _table = table;
        Columns = columns;
        Types = types;
        KeyPositions = keyPositions;
        _always = always;
    }

    /// <summary>The COPY columns as SQL spells them, in the order of the frames' values (<see cref="SyncTable.Columns"/>).</summary>
    public IReadOnlyList<string> Columns { get; }

    /// <summary>Each column's type as PostgreSQL names it, in the same order.</summary>
    public IReadOnlyList<string> Types { get; }

    /// <summary>The positions of the primary key's columns in <see cref="Columns"/>.</summary>
    public int[] KeyPositions { get; }

    /// <summary>
    /// The table's facts from the target's catalog; refuses a table without a primary key, or whose COPY columns the
    /// catalog does not hold, naming it.
    /// </summary>
    public static async Task<FollowedRelation> ReadAsync(SyncTable table, NpgsqlConnection connection, CancellationToken ct)
    {
        var catalog = new Dictionary<string, (string Type, bool Key, bool Always)>(StringComparer.Ordinal);
        await using (var command = new NpgsqlCommand(ColumnsSql, connection))
        {
            command.Parameters.Add(new() { Value = table.SqlName });
            await using var reader = await command.ExecuteReaderAsync(ct);
            while (await reader.ReadAsync(ct))
            {
                catalog[reader.GetString(0)] = (reader.GetString(1), reader.GetBoolean(2), reader.GetBoolean(3));
            }
        }

        var names = StoredNames(table);
        if (names.FirstOrDefault(n => !catalog.ContainsKey(n)) is { } missing)
        {
            throw new InvalidOperationException($"{table.SqlName}'s COPY column {missing} is not in the target's catalog ({string.Join(", ", catalog.Keys)}).");
        }

        var keys = Enumerable.Range(0, names.Count).Where(i => catalog[names[i]].Key).ToArray();
        if (keys.Length == 0)
        {
            throw new InvalidOperationException($"Following {table.SqlName} needs a primary key on the target's table (every change is found by it); it has none.");
        }

        var spelled = table.Description is null ? names : [.. names.Select(TableDescription.Quote)];
        return new FollowedRelation(table, spelled, [.. names.Select(n => catalog[n].Type)], keys, [.. names.Select(n => catalog[n].Always)]);
    }

    /// <summary>The COPY columns as stored: a built-in table's list is its names; a described one's from its description (a quoted name may hold ", ").</summary>
    private static IReadOnlyList<string> StoredNames(SyncTable table) =>
        table.Description is { } described ? [.. described.CopyColumns.Select(c => c.Name)] : table.Columns.Split(", ");

    /// <summary>
    /// <paramref name="template"/> for this table. Identifiers only, from SyncTable and the catalog, never from a request;
    /// an unchanged column keeps the target's value; the key's columns are never set (they matched).
    /// </summary>
    public string Fill(string template, string staging)
    {
        var keys = KeyPositions.ToHashSet();
        var assigned = Enumerable.Range(0, Columns.Count).Where(i => !keys.Contains(i) && !_always[i])
            .Select(i => $"{Columns[i]} = case when {i} = any (s._unchanged) then t.{Columns[i]} else s.{Columns[i]} end").ToList();
        return template.Replace("{table}", _table.SqlName, StringComparison.Ordinal)
            .Replace("{staging}", staging, StringComparison.Ordinal)
            .Replace("{key_match}", string.Join(" and ", KeyPositions.Select(i => $"s.{Columns[i]} = t.{Columns[i]}")), StringComparison.Ordinal)
            .Replace("{key_arrays}", string.Join(", ", KeyPositions.Select((_, n) => $"${n + 1}::text[]")), StringComparison.Ordinal)
            .Replace("{key_aliases}", string.Join(", ", KeyPositions.Select((_, n) => $"k{n}")), StringComparison.Ordinal)
            .Replace("{key_found}", string.Join(" and ", KeyPositions.Select((i, n) => $"t.{Columns[i]} = k.k{n}::{Types[i]}")), StringComparison.Ordinal)
            .Replace("{columns}", string.Join(", ", Columns), StringComparison.Ordinal)
            .Replace("{staged_columns}", string.Join(", ", Columns.Select(c => $"s.{c}")), StringComparison.Ordinal)
            // Every column in the key: a matched row is the same row; it sets a key column to itself.
            .Replace("{assignments}", assigned.Count > 0 ? string.Join(", ", assigned) : $"{Columns[KeyPositions[0]]} = s.{Columns[KeyPositions[0]]}", StringComparison.Ordinal)
            .Replace("{overriding}", _always.Any(a => a) ? "overriding system value " : "", StringComparison.Ordinal);
    }

    /// <summary>The one-statement road's source: each column's text array unnested and cast to its type, and the unchanged positions.</summary>
    public string UnnestSource()
    {
        var casts = string.Join(", ", Columns.Select((c, i) => $"u.{c}::{Types[i]} as {c}"));
        var arrays = string.Join(", ", Enumerable.Range(1, Columns.Count + 1).Select(i => $"${i}::text[]"));
        return $"(select {casts}, u._unchanged::int[] as _unchanged from unnest({arrays}) as u({string.Join(", ", Columns)}, _unchanged))";
    }
}
