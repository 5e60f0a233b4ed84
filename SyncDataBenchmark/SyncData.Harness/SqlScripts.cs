using Npgsql;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncData.Harness;

/// <summary>The repository's sql/ scripts, embedded, and the database layout the lab uses.</summary>
public static class SqlScripts
{
    /// <summary>sql/schema.sql and every folder table's (<see cref="LabTables"/>).</summary>
    public static string Schema => Read("schema.sql") + "\n" + LabTables.Schema;

    /// <summary>sql/generate.sql and every folder table's.</summary>
    public static string Generator => Read("generate.sql") + "\n" + LabTables.Generator;
    public static string ChangeTracking => Read("change-tracking.sql");
    public static string ChangeGenerator => Read("changes.sql");

    /// <summary>Creates the tables (and, with <paramref name="withGenerator"/>, the seed functions).</summary>
    public static async Task ApplySchemaAsync(string connectionString, bool withGenerator, CancellationToken ct = default)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(withGenerator ? Schema + "\n" + Generator : Schema, connection);
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>
    /// The source's change log, its triggers and queries (changed_&lt;table&gt;, deleted_&lt;table&gt;) and the change
    /// generator (change_&lt;table&gt;): the source database only, after <see cref="ApplySchemaAsync"/>; idempotent.
    /// </summary>
    public static async Task ApplyChangeTrackingAsync(string connectionString, CancellationToken ct = default)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(ChangeTracking + "\n" + ChangeGenerator, connection);
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>The same for the default table (<see cref="SyncTable.Default"/>).</summary>
    public static Task SeedAsync(string connectionString, long rows, CancellationToken ct = default) => SeedAsync(connectionString, SyncTable.Default, rows, ct);

    /// <summary>Replaces <paramref name="table"/>'s rows with <paramref name="rows"/> generated ones (its Tables/&lt;table&gt;/seed.sql: seed_users, seed_orders).</summary>
    public static async Task SeedAsync(string connectionString, SyncTable table, long rows, CancellationToken ct = default)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(ForTable(table, "seed.sql"), connection) { CommandTimeout = 0 };
        command.Parameters.Add(new() { Value = checked((int)rows) });
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>One of <paramref name="table"/>'s own scripts (Tables/&lt;table&gt;/): seed.sql, sentinel.sql.</summary>
    public static string ForTable(SyncTable table, string name) => Read($"Tables/{(table.Behind ?? table).Name}/{name}");

    internal static string Read(string name) => EmbeddedText.Read(typeof(SqlScripts).Assembly, name);
}
