using Npgsql;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// sql/generate.sql's seed_orders: the wide table's rows carry what the approaches must prove they move (NULLs, TOASTed
/// text, bytea past 2 KiB, arrays with NULL elements and empty ones, non-ASCII jsonb), about 1 KiB a row in binary
/// COPY, and the same rows for the same seed. Evaluated in a database of its own on the matrix lab's cluster.
/// </summary>
[Collection(MatrixCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class OrdersGeneratorTests(MatrixLab lab) : IAsyncLifetime
{
    private const int Rows = 20_000;
    private const string Database = "orders_generator";

    // Unpooled: each test drops and re-creates the database, which ends the connections a pool would hand out again.
    private string Db => lab.Postgres.ConnectionString(Database) + ";Pooling=false";

    public async Task InitializeAsync()
    {
        await ScratchDatabase.RecreateAsync(lab.Postgres, Database);
    }

    public Task DisposeAsync() => Task.CompletedTask;

    [Fact]
    public async Task The_rows_carry_every_kind_of_value_the_issue_names_in_the_stated_shares()
    {
        await SeedAsync(seed: 7);
        var shares = await ScalarAsync<double[]>("""
            select array[
                avg((discount is null)::int), avg((delivery_date is null)::int), avg((note is null)::int), avg((attachment is null)::int),
                avg((pg_column_size(note) < octet_length(note))::int),
                avg((octet_length(attachment) > 2048)::int) filter (where attachment is not null),
                max(octet_length(attachment)), avg((tags = '{}')::int), avg((array_position(tags, null) is not null)::int),
                avg((attributes::text ~ '[^\x01-\x7f]')::int), avg((jsonb_typeof(attributes -> 'items') = 'array')::int),
                avg((position('\x00'::bytea in attachment) > 0)::int) filter (where attachment is not null)]::float8[]
            from orders
            """);
        Assert.All(shares[..4], share => Assert.InRange(share, 0.2, 0.6)); // NULL in ≥ 20% of four nullable columns
        Assert.InRange(shares[4], 0.05, 0.10);                            // the note TOASTed (compressed or out of line)
        Assert.InRange(shares[5], 0.02, 0.10);                            // a share of the attachments above 2 KiB…
        Assert.InRange(shares[6], 32_768, 65_536);                        // …up to 64 KiB
        Assert.InRange(shares[7], 0.05, 0.5);                             // empty tag arrays
        Assert.InRange(shares[8], 0.05, 0.9);                             // tag arrays with NULL elements
        Assert.InRange(shares[9], 0.5, 1.0);                              // non-ASCII text in the jsonb
        Assert.Equal(1.0, shares[10]);                                    // nested arrays of objects
        Assert.InRange(shares[11], 0.1, 1.0);                             // zero bytes in the bytea
    }

    [Fact]
    public async Task A_row_is_about_one_KiB_in_binary_COPY()
    {
        await SeedAsync(seed: 7);
        await using var connection = new NpgsqlConnection(Db);
        await connection.OpenAsync();
        long bytes = 0;
        await using (var copy = await connection.BeginRawBinaryCopyAsync("copy orders to stdout (format binary)"))
        {
            var buffer = new byte[81_920];
            for (int read; (read = await copy.ReadAsync(buffer, 0, buffer.Length)) > 0;)
            {
                bytes += read;
            }
        }

        Assert.InRange(bytes / (double)Rows, 900, 1_500);
    }

    [Fact]
    public async Task The_same_seed_gives_the_same_rows_and_another_seed_other_rows()
    {
        const string fingerprint = "select md5(string_agg(o::text, '|' order by id)) from orders o";
        await SeedAsync(seed: 7);
        var first = await ScalarAsync<string>(fingerprint);
        await SeedAsync(seed: 7);
        Assert.Equal(first, await ScalarAsync<string>(fingerprint));
        await SeedAsync(seed: 8);
        Assert.NotEqual(first, await ScalarAsync<string>(fingerprint));
    }

    private async Task SeedAsync(long seed)
    {
        await using var connection = new NpgsqlConnection(Db);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("select seed_orders($1, $2)", connection) { CommandTimeout = 0 };
        command.Parameters.Add(new() { Value = Rows });
        command.Parameters.Add(new() { Value = seed });
        await command.ExecuteNonQueryAsync();
    }

    private async Task<T> ScalarAsync<T>(string sql)
    {
        await using var connection = new NpgsqlConnection(Db);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        return (T)(await command.ExecuteScalarAsync())!;
    }
}
