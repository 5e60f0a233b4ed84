using SomeService.Tables;
using SyncData.Postgres;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// SomeService's two change consumers against the real SyncDataSource: each delivers exactly changed_&lt;table&gt;(its
/// watermark), and the deleted keys exactly deleted_&lt;table&gt;; without a watermark they refuse, naming why.
/// </summary>
[Collection(ChangesCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangeConsumerTests(ChangesLab lab)
{
    [Theory]
    [InlineData("EFStreamChanges")]
    [InlineData("NpgsqlCopyChanges")]
    public async Task Each_change_fetch_delivers_exactly_the_changed_users(string fetch)
    {
        var since = await lab.WatermarkAsync();
        var counts = await lab.ChangeAsync(SyncTable.Users, 0.05, 31);
        var run = lab.ChangesRun(fetch, SyncTable.Users, since);

        var rows = await ChangesLab.ReadAllAsync(fetch, run, UsersRowTable.Instance);
        var expected = await lab.UserTextsAsync("select * from changed_users($1::pg_snapshot)", since);
        Assert.Equal(counts.Updated + counts.Inserted, rows.Count);
        Assert.Equal(expected.Order(), rows.Select(ChangesLab.Text).Order());
        var deleted = await run.ReadDeletedKeysAsync(CancellationToken.None);
        Assert.Equal(counts.Deleted, deleted.Count);
        Assert.Equal((await lab.TextsAsync("select key::text from deleted_users($1::pg_snapshot) as key", since)).Order(), deleted.Order());
    }

    [Theory]
    [InlineData("EFStreamChanges")]
    [InlineData("NpgsqlCopyChanges")]
    public async Task Each_change_fetch_delivers_exactly_the_changed_orders(string fetch)
    {
        var since = await lab.WatermarkAsync();
        var counts = await lab.ChangeAsync(SyncTable.Orders, 0.05, 32);
        var run = lab.ChangesRun(fetch, SyncTable.Orders, since);

        // Key, item count (every update raises it) and total: which rows, and in which state.
        var rows = await ChangesLab.ReadAllAsync(fetch, run, OrdersRowTable.Instance);
        var expected = await lab.TextsAsync("select concat_ws('|', id, item_count, total) from changed_orders($1::pg_snapshot)", since);
        Assert.Equal(counts.Updated + counts.Inserted, rows.Count);
        Assert.Equal(expected.Order(), rows.Select(o => FormattableString.Invariant($"{o.Id}|{o.ItemCount}|{o.Total}")).Order());
        var deleted = await run.ReadDeletedKeysAsync(CancellationToken.None);
        Assert.Equal((await lab.TextsAsync("select key::text from deleted_orders($1::pg_snapshot) as key", since)).Order(), deleted.Order());
        Assert.Equal(counts.Deleted, deleted.Count);
    }

    [Theory]
    [InlineData("EFStreamChanges")]
    [InlineData("NpgsqlCopyChanges")]
    public async Task Without_a_watermark_a_change_fetch_refuses_naming_why(string fetch)
    {
        var run = lab.ChangesRun(fetch, SyncTable.Users, since: null);
        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => ChangesLab.ReadAllAsync(fetch, run, UsersRowTable.Instance));
        Assert.Contains("no watermark for users: a verified full sync must run first", refused.Message);
        refused = await Assert.ThrowsAsync<InvalidOperationException>(() => run.ReadDeletedKeysAsync(CancellationToken.None));
        Assert.Contains("no watermark for users", refused.Message);
    }
}
