using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A table of the user's own database (--source-connection, --table schema.name; docs/own-table.md): described from
/// that database's catalog, only read, and created alike in the lab's own target database, which is emptied before
/// every run. Nothing here writes to the user's database: every connection to it is opened read only.
/// </summary>
public static class OwnTableSource
{
    private static readonly string RelationSizeSql = EmbeddedText.Read(typeof(OwnTableSource).Assembly, "OwnTable/relation-size.sql");
    private static readonly string TableCheckSql = EmbeddedText.Read(typeof(OwnTableSource).Assembly, "OwnTable/table-check.sql");

    /// <summary>
    /// <paramref name="connection"/> with every transaction read only (default_transaction_read_only), for the runner's
    /// reads and SyncDataSource's: a write to the user's database, by a mistake of the lab's, fails instead of landing.
    /// </summary>
    public static string ReadOnly(string connection)
    {
        var builder = new NpgsqlConnectionStringBuilder(connection);
        builder.Options = $"{builder.Options} -c default_transaction_read_only=on".Trim();
        return builder.ConnectionString;
    }

    /// <summary>
    /// Before anything starts: the user's database reached, the table found and holding a row; else why not, naming
    /// --source-connection without its password (a wrong password was reported only after a cluster had started, an
    /// empty table only after every case had failed on it: issue 62).
    /// </summary>
    public static async Task CheckAsync(string sourceDb, string name, CancellationToken ct)
    {
        var source = Describe(sourceDb);
        await using var connection = new NpgsqlConnection(sourceDb);
        try
        {
            await connection.OpenAsync(ct);
        }
        catch (Exception ex) when (ex is NpgsqlException or TimeoutException)
        {
            throw new InvalidOperationException($"--source-connection ({source}): cannot connect: {ex.Message}", ex);
        }

        await using var find = new NpgsqlCommand(TableCheckSql, connection);
        find.Parameters.Add(new NpgsqlParameter { Value = name });
        if (await find.ExecuteScalarAsync(ct) is not string table)
        {
            throw new InvalidOperationException($"--table {name}: no such table in {source}, or not visible to that user.");
        }

        await using var any = new NpgsqlCommand($"select exists (select from {table})", connection);
        if (await any.ExecuteScalarAsync(ct) is not true)
        {
            throw new InvalidOperationException($"Your table {name} ({source}) is empty: no run could prove it copied anything, so nothing was started.");
        }
    }

    /// <summary>Where the user's table is, as the record and the messages name it: server, database and user, never the password.</summary>
    public static string Describe(string connection)
    {
        var c = new NpgsqlConnectionStringBuilder(connection);
        return $"server {c.Host}:{c.Port}, database {c.Database}, user {c.Username}";
    }

    /// <summary>The table <paramref name="name"/> names, from its catalog; says what its copy leaves out.</summary>
    public static async Task<SyncTable> DescribeAsync(string sourceDb, string name, Action<string> say, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(sourceDb);
        await connection.OpenAsync(ct);
        var description = await TableCatalog.ReadAsync(connection, name, ct);
        say($"Your table {description.QualifiedName} in database {connection.Database}: {description.Columns.Count} columns, " +
            (description.PrimaryKey.Count > 0 ? $"primary key ({string.Join(", ", description.PrimaryKey)})" : "no primary key") +
            $"; constraints: {description.Constraints.Count}, indexes of its own: {description.Indexes.Count}, enums and domains: {description.Types.Count}.");
        foreach (var leftOut in description.LeftOut)
        {
            say($"The target's copy leaves out {leftOut}.");
        }

        return SyncTable.Of(name, description);
    }

    /// <summary>
    /// The table's like in the lab's target database, afresh: the lab's own, so an earlier run's copy is dropped; an enum
    /// or domain an earlier run created is kept (CREATE TYPE has no IF NOT EXISTS) and said.
    /// </summary>
    public static async Task CreateTargetAsync(string targetDb, SyncTable table, Action<string> say, CancellationToken ct)
    {
        var description = table.Description!;
        await Lab.ScalarAsync(targetDb, $"drop table if exists {table.SqlName}", ct);
        foreach (var type in description.Types)
        {
            try
            {
                await Lab.ScalarAsync(targetDb, type, ct);
            }
            catch (PostgresException ex) when (ex.SqlState == PostgresErrorCodes.DuplicateObject)
            {
                say($"The target already holds a type of that name, kept: {ex.MessageText}.");
            }
        }

        await Lab.ScalarAsync(targetDb, description.CreateTableSql, ct);
    }

    /// <summary>Before each run, untimed: the target's table emptied, and its checksum read: it must differ from the source's, so a run that writes nothing cannot verify.</summary>
    public static async Task<TargetStart> EmptyTargetAsync(string targetDb, SyncTable table, TableChecksum source, CancellationToken ct)
    {
        await Lab.ScalarAsync(targetDb, $"truncate {table.SqlName}", ct);
        var target = await Lab.ReadChecksumAsync(targetDb, table, ct);
        if (target == source)
        {
            throw new InvalidOperationException($"Your table {table.SqlName} is empty: an emptied target already equals it, so no run could prove it copied anything.");
        }

        return new TargetStart(source, target);
    }

    /// <summary>The catalog's row estimate and the table's bytes (heap and TOAST), for the estimate before the first run.</summary>
    public static async Task<(long Tuples, long Bytes)> SizeAsync(string sourceDb, SyncTable table, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(sourceDb);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(RelationSizeSql, connection);
        command.Parameters.Add(new NpgsqlParameter { Value = table.SqlName });
        await using var reader = await command.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return (reader.GetInt64(0), reader.GetInt64(1));
    }
}
