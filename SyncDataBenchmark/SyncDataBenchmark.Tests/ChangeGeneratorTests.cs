using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// sql/changes.sql's change_&lt;table&gt;(share, seed): round(share × rows) rows changed, at least one, 70% updates /
/// 20% inserts / the rest deletes; the same rows and seed give the same result; an update changes every column of an
/// order; applied again with the same seed (the runner's repetitions) it changes the table again without reusing a key.
/// In a database of its own on the changes lab's cluster, 1,000 rows a table.
/// </summary>
[Collection(ChangesCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangeGeneratorTests(ChangesLab lab) : IAsyncLifetime
{
    private const int Rows = 1_000;
    private const string Database = "change_generator";

    // Unpooled: InitializeAsync drops and re-creates the database, which ends the connections a pool would hand out again.
    private string Db => lab.Postgres.ConnectionString(Database) + ";Pooling=false";

    public async Task InitializeAsync()
    {
        await ScratchDatabase.RecreateAsync(lab.Postgres, Database);
        await SqlScripts.ApplyChangeTrackingAsync(Db);
        await SqlScripts.SeedAsync(Db, SyncTable.Users, Rows);
        await SqlScripts.SeedAsync(Db, SyncTable.Orders, Rows);
        foreach (var table in SyncTable.All)
        {
            await Lab.ScalarAsync(Db, $"create table {table.Name}_before as select * from {table.Name}");
        }
    }

    public Task DisposeAsync() => Task.CompletedTask;

    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task The_same_rows_and_seed_give_the_same_change_and_another_seed_another(string name)
    {
        var table = SyncTable.Named(name);
        var counts = await ChangeAsync(table, 0.1, 5);
        var first = await Lab.ReadChecksumAsync(Db, table);
        await RestoreAsync(table);
        Assert.Equal(counts, await ChangeAsync(table, 0.1, 5));
        Assert.Equal(first, await Lab.ReadChecksumAsync(Db, table));
        await RestoreAsync(table);
        await ChangeAsync(table, 0.1, 6);
        Assert.NotEqual(first, await Lab.ReadChecksumAsync(Db, table));
    }

    [Theory]
    [InlineData("users", 0.1, 70, 20, 10)]
    [InlineData("orders", 0.01, 7, 2, 1)]
    [InlineData("orders", 0.003, 2, 1, 0)]
    [InlineData("users", 0.0001, 1, 0, 0)] // 0.1 row rounds to none: at least one
    [InlineData("orders", 1e-9, 1, 0, 0)]
    public async Task A_share_of_the_rows_changes_in_the_stated_mix(string name, double share, long updated, long inserted, long deleted)
    {
        var table = SyncTable.Named(name);
        Assert.Equal(new ChangeCounts(updated, inserted, deleted), await ChangeAsync(table, share, 1));

        // What the table shows against its copy from before: the counts are rows really changed, not just reported.
        var (gone, added, altered) = await DifferencesAsync(table);
        Assert.Equal((deleted, inserted, updated), (gone, added, altered));
        Assert.Equal(Rows + inserted - deleted, (await Lab.ReadChecksumAsync(Db, table)).Rows);
    }

    [Fact]
    public async Task An_update_changes_every_column_of_an_order_but_its_key()
    {
        var counts = await ChangeAsync(SyncTable.Orders, 0.1, 3);
        var columns = SyncTable.Orders.Columns.Split(", ").Where(c => c != "id").ToList();
        var sql = "select " + string.Join(", ", columns.Select(c => $"count(*) filter (where n.{c} is distinct from b.{c})")) +
                  " from orders as n join orders_before as b using (id)";
        await using var connection = new NpgsqlConnection(Db);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        for (var i = 0; i < columns.Count; i++)
        {
            Assert.True(reader.GetInt64(i) == counts.Updated, $"{columns[i]} changed in {reader.GetInt64(i)} of the {counts.Updated} updated orders.");
        }
    }

    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task The_same_seed_again_on_the_changed_table_changes_it_again_with_new_keys(string name)
    {
        // The runner prepares every repetition of every case with seed = repetition, on a source that keeps its changes.
        var table = SyncTable.Named(name);
        await ChangeAsync(table, 0.1, 1);
        var after = await Lab.ReadChecksumAsync(Db, table);
        var again = await ChangeAsync(table, 0.1, 1);
        Assert.Equal((long)Math.Round(0.1 * after.Rows, MidpointRounding.AwayFromZero), again.Total);
        Assert.NotEqual(after, await Lab.ReadChecksumAsync(Db, table));
    }

    [Fact]
    public async Task The_awkward_orders_change_into_values_every_path_carries()
    {
        // decimal's edges, int's, the years 1 and 9999 (OrdersLab's fixture): a change must neither overflow in SQL nor
        // make a value the row-parsing paths refuse, or a merge would fail on the generator's doing, not the library's.
        try
        {
            await Lab.ScalarAsync(Db, "truncate orders; " + File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", "awkward-orders.sql")));
            for (var seed = 1; seed <= 8; seed++)
            {
                await ChangeAsync(SyncTable.Orders, 1.0, seed);
            }

            await using var connection = new NpgsqlConnection(Db);
            await connection.OpenAsync();
            await using var command = new NpgsqlCommand("select id, exchange_rate::text, placed_at <> 'infinity' and placed_at >= '10000-01-01' from orders", connection);
            await using var reader = await command.ExecuteReaderAsync();
            while (await reader.ReadAsync())
            {
                var rate = reader.GetString(1);
                Assert.True(decimal.TryParse(rate, System.Globalization.CultureInfo.InvariantCulture, out var parsed)
                            && parsed.ToString(System.Globalization.CultureInfo.InvariantCulture) == rate, $"order {reader.GetInt64(0)}: exchange_rate {rate} is beyond decimal");
                Assert.False(reader.GetBoolean(2), $"order {reader.GetInt64(0)}: placed_at past the year 9999");
            }
        }
        finally
        {
            await RestoreAsync(SyncTable.Orders);
        }
    }

    private async Task<ChangeCounts> ChangeAsync(SyncTable table, double share, int seed)
    {
        await using var source = NpgsqlDataSource.Create(Db);
        return await ChangedBaseline.ChangeSourceAsync(source, table, share, seed, CancellationToken.None);
    }

    private Task RestoreAsync(SyncTable table) =>
        Lab.ScalarAsync(Db, $"truncate {table.Name}; insert into {table.Name} {(table == SyncTable.Orders ? "overriding system value " : "")}select * from {table.Name}_before");

    /// <summary>Keys gone, keys added, and rows with a key in both whose values differ.</summary>
    private async Task<(long Gone, long Added, long Altered)> DifferencesAsync(SyncTable table)
    {
        var name = table.Name;
        await using var connection = new NpgsqlConnection(Db);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(
            $"""
             select (select count(*) from {name}_before as b where not exists (select from {name} as n where n.id = b.id)),
                    (select count(*) from {name} as n where not exists (select from {name}_before as b where b.id = n.id)),
                    (select count(*) from {name} as n join {name}_before as b using (id) where row(n.*) is distinct from row(b.*))
             """, connection);
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        return (reader.GetInt64(0), reader.GetInt64(1), reader.GetInt64(2));
    }
}
