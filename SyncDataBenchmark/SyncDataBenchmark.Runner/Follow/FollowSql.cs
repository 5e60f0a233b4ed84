using Npgsql;
using SyncData.Shared;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>The follow matrix's .sql files (embedded), run one statement at a time: CREATE SUBSCRIPTION and a slot's creation cannot share a transaction.</summary>
public static class FollowSql
{
    public static string Read(string name) => EmbeddedText.Read(typeof(FollowSql).Assembly, $"Follow/{name}");

    /// <summary>The file's statements (separated by a line ending in ';') in turn, each its own transaction; {{table}} and the <paramref name="values"/> filled in.</summary>
    public static Task RunAsync(string connectionString, string name, SyncTable table, CancellationToken ct, params (string Key, string Value)[] values) =>
        RunSqlAsync(connectionString, Read(name), table, ct, values);

    /// <summary><paramref name="sql"/>'s statements in turn, as <see cref="RunAsync"/> runs a file's (the peers' shared subscription SQL).</summary>
    public static async Task RunSqlAsync(string connectionString, string sql, SyncTable table, CancellationToken ct, params (string Key, string Value)[] values)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        foreach (var statement in Statements(Fill(sql, table, values)))
        {
            await using var command = new NpgsqlCommand(statement, connection);
            await command.ExecuteNonQueryAsync(ct);
        }
    }

    /// <summary>The first row of <paramref name="sql"/> (positional parameters $1…), its values; null values as null.</summary>
    public static async Task<object?[]> RowAsync(string connectionString, string sql, CancellationToken ct, params object[] parameters)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var p in parameters)
        {
            command.Parameters.Add(new NpgsqlParameter { Value = p });
        }

        await using var reader = await command.ExecuteReaderAsync(ct);
        if (!await reader.ReadAsync(ct))
        {
            throw new InvalidOperationException($"No row from: {sql}");
        }

        var values = new object?[reader.FieldCount];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = reader.IsDBNull(i) ? null : reader.GetValue(i);
        }

        return values;
    }

    public static string Fill(string sql, SyncTable table, params (string Key, string Value)[] values) =>
        values.Aggregate(sql.Replace("{{table}}", table.SqlName, StringComparison.Ordinal).Replace("{{prefix}}", FollowMechanisms.Prefix, StringComparison.Ordinal)
                .Replace("{{key}}", KeyText(table), StringComparison.Ordinal),
            (text, v) => text.Replace("{{" + v.Key + "}}", v.Value, StringComparison.Ordinal));

    /// <summary>
    /// A row of <paramref name="table"/> (aliased t) named by its whole primary key, as text: the lag sample joins the
    /// source's and the target's versions by it. A built-in table's key is its id; a described one's is read from its catalog.
    /// </summary>
    private static string KeyText(SyncTable table) => table.Description is { PrimaryKey: { Count: > 0 } key }
        ? key.Count == 1 ? $"t.{SyncData.Postgres.Catalog.TableDescription.Quote(key[0])}::text" : $"row({string.Join(", ", key.Select(k => "t." + SyncData.Postgres.Catalog.TableDescription.Quote(k)))})::text"
        : "t.id::text";

    private static IEnumerable<string> Statements(string sql) =>
        string.Join('\n', sql.Split('\n').Where(l => !l.TrimStart().StartsWith("--", StringComparison.Ordinal)))
            .Split(";\n", StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Where(s => s.Length > 0);

    /// <summary>A SQL string literal of <paramref name="text"/>.</summary>
    public static string Literal(string text) => "'" + text.Replace("'", "''", StringComparison.Ordinal) + "'";
}
