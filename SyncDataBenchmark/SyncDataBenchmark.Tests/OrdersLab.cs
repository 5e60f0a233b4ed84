using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A lab whose source holds the wide table: <see cref="SeededRows"/> rows of seed_orders (seed 1) and the awkward orders
/// of Fixtures/awkward-orders.sql. Kept small: every combination runs here, several times.
/// </summary>
public sealed class OrdersLab : LabFixture
{
    public const int SeededRows = 300;

    /// <summary>The awkward orders added after the seeded ones.</summary>
    public const int AwkwardRows = 6;

    public const long Rows = SeededRows + AwkwardRows;

    protected override long SeedRows => 0;

    protected override async Task PrepareDatabasesAsync()
    {
        await Lab.ScalarAsync(SourceDb, "select seed_orders($1, 1)", [SeededRows]);
        await Lab.ScalarAsync(SourceDb, await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Fixtures", "awkward-orders.sql")));
    }

    /// <summary>A database's orders count and checksum, read directly, independent of both services.</summary>
    public static async Task<TableChecksum> ReadChecksumAsync(string connectionString)
    {
        await using var connection = new Npgsql.NpgsqlConnection(connectionString + ";Pooling=false");
        await connection.OpenAsync();
        return await connection.ReadChecksumAsync(SyncTable.Orders, null, CancellationToken.None);
    }

    /// <summary>
    /// Doing nothing must not verify: the target's orders emptied and one sentinel order planted that no source holds.
    /// Throws if the target still equals the source.
    /// </summary>
    public async Task MakeTargetDifferAsync()
    {
        await Lab.ScalarAsync(TargetDb, "truncate orders; insert into orders (id, customer_id, status, total, exchange_rate, currency, placed_at, tags, attributes, " +
                                        "item_count, is_gift, shipping_address) values (-1, gen_random_uuid(), 'pending', 0, 0, 'XXX', now(), '{}', '{}', 0, false, 'sentinel')");
        if (await ReadChecksumAsync(TargetDb) == await ReadChecksumAsync(SourceDb))
        {
            throw new InvalidOperationException("The target's orders still equal the source's after planting the sentinel row.");
        }
    }

    /// <summary>
    /// Triggers an orders run and waits for its result; fails the test on anything but 200. Pages of 50 and batches of
    /// 40: the paging fetches cross page boundaries (keyset after a bigint) and the batching writers batch boundaries.
    /// </summary>
    public async Task<RunResult> SyncOrdersAsync(string fetch, string insert)
    {
        using var response = await Api.TriggerAsync(fetch, insert, pageSize: 50, batchSize: 40, wait: true, table: SyncTable.Orders.Name);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"{fetch} × {insert} answered {(int)response.StatusCode}: {body}\n{SomeService.RecentOutput}");
        return System.Text.Json.JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
    }
}

[CollectionDefinition(Name)]
public sealed class OrdersCollection : ICollectionFixture<OrdersLab>
{
    public const string Name = "orders";
}
