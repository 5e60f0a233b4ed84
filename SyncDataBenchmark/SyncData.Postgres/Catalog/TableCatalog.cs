using Npgsql;

namespace SyncData.Postgres.Catalog;

/// <summary>
/// Reads a table's description from the catalog of the database that holds it (pg_class, pg_attribute, pg_constraint,
/// pg_index, pg_type): only SELECTs of the catalog, so a role that may only read the table can describe it.
/// </summary>
public static class TableCatalog
{
    private static readonly string Relation = Read("describe-relation.sql");
    private static readonly string ColumnsSql = Read("describe-columns.sql");
    private static readonly string KeySql = Read("describe-key.sql");
    private static readonly string ConstraintsSql = Read("describe-constraints.sql");
    private static readonly string IndexesSql = Read("describe-indexes.sql");
    private static readonly string TypesSql = Read("describe-types.sql");

    /// <param name="name">The table as SQL names it: <c>schema.name</c> or <c>name</c> (the search path's), unquoted parts folded to lower case.</param>
    public static async Task<TableDescription> ReadAsync(NpgsqlConnection connection, string name, CancellationToken ct = default)
    {
        var (oid, schema, table, kind) = await RelationAsync(connection, name, ct);
        var leftOut = new List<string>();
        if (kind == "p")
        {
            leftOut.Add("partitioning: the target is one plain table holding every partition's rows");
        }
        else if (kind != "r")
        {
            throw new TableCatalogException($"{name} is not a table (relkind '{kind}'): the lab copies tables.");
        }

        var (columns, typeOids) = await ColumnsAsync(connection, oid, ct);
        var key = await ListAsync(connection, KeySql, oid, r => r.GetString(0), ct);
        var constraints = new List<string>();
        foreach (var (constraint, type, definition) in await ListAsync(connection, ConstraintsSql, oid, r => (r.GetString(0), r.GetString(1), r.GetString(2)), ct))
        {
            if (type == "f")
            {
                leftOut.Add($"foreign key {constraint} ({definition}): it names a table the target does not have");
            }
            else
            {
                constraints.Add($"constraint {TableDescription.Quote(constraint)} {definition}");
            }
        }

        var indexes = await ListAsync(connection, IndexesSql, oid, r => r.GetString(0), ct);
        var types = await UserTypesAsync(connection, name, typeOids, ct);
        return new TableDescription(schema, table, columns, key, constraints, indexes, types, leftOut);
    }

    private static async Task<(long Oid, string Schema, string Name, string Kind)> RelationAsync(NpgsqlConnection connection, string name, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(Relation, connection);
        command.Parameters.Add(new NpgsqlParameter { Value = name });
        await using var reader = await command.ExecuteReaderAsync(ct);
        if (!await reader.ReadAsync(ct))
        {
            throw new TableCatalogException($"There is no table {name} in database {connection.Database} (as SQL reads the name: unquoted parts in lower case; quote a mixed-case part, \"Name\").");
        }

        return (reader.GetInt64(0), reader.GetString(1), reader.GetString(2), reader.GetString(3));
    }

    private static async Task<(List<TableColumn> Columns, HashSet<long> TypeOids)> ColumnsAsync(NpgsqlConnection connection, long oid, CancellationToken ct)
    {
        var typeOids = new HashSet<long>();
        var columns = await ListAsync(connection, ColumnsSql, oid, r =>
        {
            typeOids.Add(r.GetInt64(7));
            typeOids.Add(r.GetInt64(8));
            var baseType = new ColumnBaseType(r.GetString(9), r.GetString(10), r.GetInt32(11), r.GetString(12), r.GetString(13), r.GetString(14), r.GetFieldValue<string[]>(15), r.GetString(16));
            return new TableColumn(r.GetString(0), r.GetString(1), r.GetString(2), r.GetBoolean(3),
                r.IsDBNull(4) ? null : r.GetString(4), r.GetString(5), r.IsDBNull(6) ? null : r.GetString(6), baseType);
        }, ct);
        return (columns, typeOids);
    }

    /// <summary>CREATE statements for the enums, domains and extensions' types the columns use (a domain's base type first); any other user-defined type is refused by name.</summary>
    private static async Task<List<string>> UserTypesAsync(NpgsqlConnection connection, string table, HashSet<long> oids, CancellationToken ct)
    {
        var statements = new List<string>();
        var seen = new HashSet<long>();
        while (oids.Except(seen).ToArray() is { Length: > 0 } pending)
        {
            seen.UnionWith(pending);
            await using var command = new NpgsqlCommand(TypesSql, connection);
            command.Parameters.Add(new NpgsqlParameter { Value = pending.Select(o => (uint)o).ToArray(), NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Array | NpgsqlTypes.NpgsqlDbType.Oid });
            await using var reader = await command.ExecuteReaderAsync(ct);
            var found = new List<string>();
            while (await reader.ReadAsync(ct))
            {
                found.Add(TypeStatement(table, reader));
                oids.Add(reader.GetInt64(8));
            }

            // Read in rounds from the columns towards the base types: each round's types go before the last round's.
            statements.InsertRange(0, found);
        }

        return statements;
    }

    private static string TypeStatement(string table, NpgsqlDataReader type)
    {
        var name = type.GetString(2);
        var schema = TableDescription.Quote(type.GetString(3));
        return type.GetString(1) switch
        {
            "e" => $"create schema if not exists {schema};\ncreate type {name} as enum ({string.Join(", ", type.GetFieldValue<string[]>(4))})",
            "d" => $"create schema if not exists {schema};\ncreate domain {name} as {type.GetString(5)}{(type.GetBoolean(6) ? " not null" : "")}" +
                   string.Concat(type.GetFieldValue<string[]>(7).Select(check => " " + check)),
            // An extension's type (citext): the extension, into the schema that holds the type, where the target has it not.
            "b" when !type.IsDBNull(9) => $"create schema if not exists {schema};\ncreate extension if not exists {TableDescription.Quote(type.GetString(9))} with schema {schema}",
            var kind => throw new TableCatalogException(
                $"{table} uses the user-defined type {name} (typtype '{kind}'): the lab creates enums and domains in the target, not this kind; create it in the target first."),
        };
    }

    private static async Task<List<T>> ListAsync<T>(NpgsqlConnection connection, string sql, long oid, Func<NpgsqlDataReader, T> read, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        command.Parameters.Add(new NpgsqlParameter { Value = (uint)oid, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Oid });
        await using var reader = await command.ExecuteReaderAsync(ct);
        var items = new List<T>();
        while (await reader.ReadAsync(ct))
        {
            items.Add(read(reader));
        }

        return items;
    }

    private static string Read(string name) => SyncData.Shared.EmbeddedText.Read(typeof(TableCatalog).Assembly, "Catalog/" + name);
}
