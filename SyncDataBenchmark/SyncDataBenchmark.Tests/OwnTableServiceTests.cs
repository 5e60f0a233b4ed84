using System.Net;
using System.Text.Json;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Both services on a team's own table (Fixtures/team-table.sql), each describing it from its own database's catalog
/// (docs/own-table.md): SyncDataSource serves its COPY and checksum under the table's escaped name, SomeService moves it
/// by the approaches that carry it and refuses the others naming why; the runner's read-only connection refuses writes.
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class OwnTableServiceTests(InProcessLab lab) : IAsyncLifetime
{
    private const string Table = "\"Team Sales\".\"Order Lines\"";
    private string _source = null!;
    private string _target = null!;

    public async Task InitializeAsync()
    {
        var admin = lab.Postgres.ConnectionString("postgres") + ";Pooling=false";
        await Lab.ScalarAsync(admin, "drop database if exists own_source with (force)");
        await Lab.ScalarAsync(admin, "create database own_source");
        _source = lab.Postgres.ConnectionString("own_source") + ";Pooling=false";
        foreach (var fixture in new[] { "team-table.sql", "team-keyless.sql", "team-always-identity.sql" })
        {
            await Lab.ScalarAsync(_source, await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Fixtures", fixture)));
        }

        _target = await ScratchDatabase.RecreateAsync(lab.Postgres, "own_target");
        await using var connection = new NpgsqlConnection(_source);
        await connection.OpenAsync();
        await Lab.ScalarAsync(_target, (await TableCatalog.ReadAsync(connection, Table)).CreateSql);
        await Lab.ScalarAsync(_target, (await TableCatalog.ReadAsync(connection, Keyless)).CreateTableSql);
        await Lab.ScalarAsync(_target, (await TableCatalog.ReadAsync(connection, AlwaysKeyed)).CreateTableSql);
    }

    private const string AlwaysKeyed = "\"Team Sales\".\"Always Keyed\"";

    private const string Keyless = "\"Team Sales\".keyless";

    public Task DisposeAsync() => Task.CompletedTask;

    private InProcessPair Pair() => OwnTablePair.Start(lab, _source, _target);

    [Theory]
    [InlineData("NpgsqlCopyRaw", Table, 4L)]
    [InlineData("NpgsqlCopyRawTuned", Table, 4L)]
    // No primary key: the tuned writer has none to drop and rebuild.
    [InlineData("NpgsqlCopyRawTuned", Keyless, 100L)]
    // Through the row class generated from the table's catalog: the types are mapped; the COPY writers need no INSERT of the GENERATED ALWAYS identity, nor a key.
    [InlineData("NpgsqlCopy", AlwaysKeyed, 18L)]
    [InlineData("EFBulk", AlwaysKeyed, 18L)]
    [InlineData("Linq2DBCopy", AlwaysKeyed, 18L)]
    [InlineData("NpgsqlCopy", Keyless, 100L)]
    [InlineData("Linq2DB", Keyless, 100L)]
    public async Task A_carrying_approach_moves_the_table_and_verifies_it_over_every_column(string insert, string name, long rows)
    {
        await using var pair = Pair();
        using var response = await pair.SomeService.TriggerAsync("NpgsqlCopy", insert, wait: true, table: name);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, body);
        var run = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
        Assert.True(run.Verified, body);
        Assert.Equal(rows, run.Rows);
        await using var connection = new NpgsqlConnection(_source);
        await connection.OpenAsync();
        var table = SyncTable.Of(name, await TableCatalog.ReadAsync(connection, name));
        Assert.Equal(await Lab.ReadChecksumAsync(_source, table), await Lab.ReadChecksumAsync(_target, table));
    }

    /// <summary>
    /// A whole-table merge into a target that differs from the source (Fixtures/team-merge-drift.sql: rows missing, rows
    /// altered, an extra row): by a composite key over quoted mixed-case names, the generated column left to the target,
    /// and into a table keyed by a GENERATED ALWAYS identity (OVERRIDING SYSTEM VALUE). Verified over every column.
    /// </summary>
    [Theory]
    [InlineData(Table, 4L)]
    [InlineData(AlwaysKeyed, 18L)]
    public async Task A_merge_makes_a_differing_target_equal_to_the_source_over_every_column(string name, long rows)
    {
        await using var pair = Pair();
        using (var reload = await pair.SomeService.TriggerAsync("NpgsqlCopy", "NpgsqlCopyRaw", wait: true, table: name))
        {
            Assert.True(reload.StatusCode == HttpStatusCode.OK, await reload.Content.ReadAsStringAsync());
        }

        await Lab.ScalarAsync(_target, await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Fixtures", "team-merge-drift.sql")));
        await using var connection = new NpgsqlConnection(_source);
        await connection.OpenAsync();
        var table = SyncTable.Of(name, await TableCatalog.ReadAsync(connection, name));
        Assert.NotEqual(await Lab.ReadChecksumAsync(_source, table), await Lab.ReadChecksumAsync(_target, table));

        using var response = await pair.SomeService.TriggerAsync("NpgsqlCopy", "NpgsqlCopyRawMerge", wait: true, table: name);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, body);
        var run = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
        Assert.True(run.Verified, body);
        Assert.Equal(rows, run.Rows);
        Assert.Equal(await Lab.ReadChecksumAsync(_source, table), await Lab.ReadChecksumAsync(_target, table));
    }

    [Theory]
    [InlineData("GrpcStream", "NpgsqlCopy", Table, "is a table the lab has no classes for: GrpcStream sends rows in a wire format generated per type (JSON, Arrow's schema, " +
                                                   "the table's .proto), which carries no interval yet, and \"Team Sales\".\"Order Lines\"'s column \"span\" is interval")]
    [InlineData("EFStream", "EFTypical", Table, "is a table the lab has no classes for: EFStream sends rows in a wire format generated per type (JSON, Arrow's schema, " +
                                                "the table's .proto), which carries no interval yet, and \"Team Sales\".\"Order Lines\"'s column \"span\" is interval")]
    [InlineData("NpgsqlCopy", "NpgsqlCopy", Table, "is a table the lab has no classes for: NpgsqlCopy (Npgsql's binary importer) writes rows of a class generated " +
                                                   "from the table's catalog, and \"Team Sales\".\"Order Lines\"'s column \"words\" is tsvector[]: the generator maps arrays of bool")]
    [InlineData("NpgsqlCopy", "EFBulk", Table, "EFBulk (EFCore.BulkExtensions) writes rows of a class generated from the table's catalog, and \"Team Sales\".\"Order Lines\"'s column \"words\" is tsvector")]
    [InlineData("NpgsqlCopy", "EFTypical", AlwaysKeyed, "EFTypical (EF Core) INSERTs, and \"Team Sales\".\"Always Keyed\"'s column \"id\" is GENERATED ALWAYS AS IDENTITY")]
    [InlineData("NpgsqlCopy", "Linq2DB", AlwaysKeyed, "Linq2DB (linq2db) INSERTs, and \"Team Sales\".\"Always Keyed\"'s column \"id\" is GENERATED ALWAYS AS IDENTITY")]
    [InlineData("NpgsqlCopy", "EFBulk", Keyless, "EFBulk (EFCore.BulkExtensions) adds entities EF Core tracks by key, and \"Team Sales\".\"keyless\" has no primary key")]
    [InlineData("NpgsqlCopy", "NpgsqlCopyRawMerge", Keyless, "NpgsqlCopyRawMerge merges by primary key, and \"Team Sales\".\"keyless\" has none")]
    [InlineData("NpgsqlCopy", "NpgsqlCopyRaw", "\"Team Sales\".nothing", "is not a table. Valid values: users, orders (default users), or a table of the target's own database as schema.name: There is no table")]
    public async Task SomeService_refuses_what_cannot_carry_the_table_naming_why(string fetch, string insert, string table, string why)
    {
        await using var pair = Pair();
        Assert.Contains(why, await OwnTablePair.RefusalAsync(pair, fetch, insert, table), StringComparison.Ordinal);
    }

    [Fact]
    public async Task SyncDataSource_answers_a_table_its_catalog_does_not_describe_with_404_naming_it()
    {
        await using var pair = Pair();
        var (status, detail) = await pair.GetProblemAsync("/" + SourceRoutes.InTable(SourceRoutes.Checksum, "\"Team Sales\".nothing"));
        Assert.Equal(HttpStatusCode.NotFound, status);
        Assert.Contains("There is no table \"Team Sales\".nothing in database own_source", detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_read_only_connection_refuses_a_write_even_from_the_tables_owner()
    {
        var failed = await Assert.ThrowsAsync<PostgresException>(() => Lab.ScalarAsync(OwnTableSource.ReadOnly(_source), $"delete from {Table}"));
        Assert.Equal(PostgresErrorCodes.ReadOnlySqlTransaction, failed.SqlState);
    }
}
