using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A lab for the merges (issue 39): users (<see cref="UsersRows"/> generated rows) and orders (OrdersLab's seeded and
/// awkward rows) in the source, which the tests change (ChangedBaseline), so no other test shares it.
/// </summary>
public sealed class MergeLab : LabFixture
{
    public const long UsersRows = 2_003;

    protected override long SeedRows => UsersRows;

    public NpgsqlDataSource SourceData { get; private set; } = null!;
    public NpgsqlDataSource TargetData { get; private set; } = null!;

    protected override async Task PrepareDatabasesAsync()
    {
        await Lab.ScalarAsync(SourceDb, "select seed_orders($1, 1)", [OrdersLab.SeededRows]);
        await Lab.ScalarAsync(SourceDb, AwkwardOrders);
        SourceData = NpgsqlDataSource.Create(SourceDb);
        TargetData = NpgsqlDataSource.Create(TargetDb);
    }

    /// <summary>
    /// The target made equal to the source at one instant, with its watermark, then <paramref name="share"/> of the
    /// source changed (updates, inserts, deletes); checked to differ, so a merge that does nothing cannot verify.
    /// </summary>
    public async Task<ChangeCounts> ChangeSourceAfterBaselineAsync(SyncTable table, double share, int seed)
    {
        var counts = table == SyncTable.Orders
            ? await ChangeOrdersAsync(share, seed)
            : await ChangedBaseline.PrepareAsync(SourceData, TargetData, table, share, seed, CancellationToken.None);
        Assert.NotEqual(await Lab.ReadChecksumAsync(SourceDb, table), await Lab.ReadChecksumAsync(TargetDb, table));
        Assert.True(counts is { Updated: > 0, Inserted: > 0, Deleted: > 0 }, $"{table.Name}: {counts}");
        return counts;
    }

    /// <summary>
    /// change_orders cannot update the awkward orders (item_count 2147483647 + 1 is out of range), so they are taken out
    /// of the source before the baseline and put back after the change: every merge meets them as inserts.
    /// </summary>
    private async Task<ChangeCounts> ChangeOrdersAsync(double share, int seed)
    {
        await Lab.ScalarAsync(SourceDb, "delete from orders where id between 1000001 and 1000006");
        var counts = await ChangedBaseline.PrepareAsync(SourceData, TargetData, SyncTable.Orders, share, seed, CancellationToken.None);
        await Lab.ScalarAsync(SourceDb, AwkwardOrders);
        return counts with { Inserted = counts.Inserted + OrdersLab.AwkwardRows };
    }

    private static string AwkwardOrders => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", "awkward-orders.sql"));

    /// <summary>The target's watermark for <paramref name="table"/> as stored (pg_snapshot text), or null.</summary>
    public async Task<string?> ReadWatermarkAsync(SyncTable table) =>
        await Lab.ScalarAsync(TargetDb, "select snapshot::text from sync_watermarks where table_name = $1", [table.Name]) as string;

    /// <summary>Triggers a run of <paramref name="table"/> and waits for it; fails the test on anything but 200.</summary>
    public async Task<RunResult> SyncTableAsync(string fetch, string insert, SyncTable table)
    {
        // Small pages and batches: the paging fetches and the batching merges cross their boundaries.
        using var response = await Api.TriggerAsync(fetch, insert, pageSize: 97, batchSize: 89, wait: true, table: table.Name);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"{fetch} × {insert} answered {(int)response.StatusCode}: {body}\n{SomeService.RecentOutput}");
        return System.Text.Json.JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
    }

    public override async Task DisposeAsync()
    {
        if (SourceData is not null)
        {
            await SourceData.DisposeAsync();
            await TargetData.DisposeAsync();
        }

        await base.DisposeAsync();
    }
}

[CollectionDefinition(Name)]
public sealed class MergeCollection : ICollectionFixture<MergeLab>
{
    public const string Name = "merge";
}
