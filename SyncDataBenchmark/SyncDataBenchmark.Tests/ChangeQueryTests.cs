using Npgsql;
using SomeService.Tables;
using SyncData.Harness;
using SyncData.Postgres;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// sql/change-tracking.sql's changed_&lt;table&gt;(since) and deleted_&lt;table&gt;(since) on the lab's source: exactly
/// what was inserted, updated and deleted after the watermark, nothing from before it, and the rows of a transaction
/// still open when the watermark was taken whenever it commits, however old their timestamps and however late.
/// </summary>
[Collection(ChangesCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangeQueryTests(ChangesLab lab)
{
    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task The_changes_since_a_watermark_are_exactly_the_rows_written_after_it(string name)
    {
        var table = SyncTable.Named(name);
        await lab.ChangeAsync(table, 0.05, 11); // before the watermark: none of it may come back
        await Lab.ScalarAsync(lab.SourceDb, $"drop table if exists {name}_at_watermark; create table {name}_at_watermark as select * from {name}");
        var since = await lab.WatermarkAsync();
        var counts = await lab.ChangeAsync(table, 0.05, 12);

        // The rows now that were not there, identical, at the watermark; the keys there then and gone now.
        var mismatch = await lab.TextsAsync(
            $"""
             with expected as (select * from {name} except all select * from {name}_at_watermark),
                  got as (select * from changed_{name}($1::pg_snapshot))
             select concat_ws(' ', (select count(*) from got), (select count(*) from expected),
                               (select count(*) from (select * from got except all select * from expected) as extra),
                               (select count(*) from (select * from expected except all select * from got) as missing))
             """, since);
        var changed = counts.Updated + counts.Inserted;
        Assert.Equal($"{changed} {changed} 0 0", mismatch.Single());

        var deleted = await lab.TextsAsync($"select key::text from deleted_{name}($1::pg_snapshot) as key", since);
        var expectedDeleted = await lab.TextsAsync($"select id::text from {name}_at_watermark except select id::text from {name}");
        Assert.Equal(counts.Deleted, deleted.Count);
        Assert.Equal(expectedDeleted.Order(), deleted.Order());
        await Lab.ScalarAsync(lab.SourceDb, $"drop table {name}_at_watermark");
    }

    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task Nothing_comes_back_when_nothing_changed_after_the_watermark(string name)
    {
        await lab.ChangeAsync(SyncTable.Named(name), 0.05, 13);
        var since = await lab.WatermarkAsync();
        Assert.Empty(await lab.TextsAsync($"select id::text from changed_{name}($1::pg_snapshot)", since));
        Assert.Empty(await lab.TextsAsync($"select key::text from deleted_{name}($1::pg_snapshot) as key", since));
    }

    /// <summary>
    /// The trap a cursor falls into (README, issue 39): transaction A writes first (an older id, rows with an older
    /// timestamp) and commits after B, which wrote later and committed before the sync took its watermark. Anything
    /// that orders by commit-time-blind numbers (updated_at, a serial, xid &gt; the last seen, xid ≥ the snapshot's xmax)
    /// sees B, moves past A, and never returns it. Visibility does not: A was invisible in the watermark, so the next
    /// sync gets it, its delete included — read directly and through both change fetches' consumers.
    /// </summary>
    [Fact]
    public async Task A_transaction_open_when_the_watermark_was_taken_arrives_in_the_next_sync_after_it_commits()
    {
        var before = await lab.WatermarkAsync();
        var (heldInsert, heldUpdate, heldDelete, later) = (Guid.NewGuid(), await AnyUserAsync(0), await AnyUserAsync(1), Guid.NewGuid());

        await using var held = new NpgsqlConnection(lab.SourceDb + ";Pooling=false");
        await held.OpenAsync();
        await using var a = await held.BeginTransactionAsync();
        await ExecuteAsync(held, a, "insert into users values ($1, 'held', 'H', 'Open', timestamp '2000-01-01', true)", heldInsert);
        await ExecuteAsync(held, a, "update users set name = 'held update', created_at = timestamp '2000-01-02' where id = $1", heldUpdate);
        await ExecuteAsync(held, a, "delete from users where id = $1", heldDelete);

        await Lab.ScalarAsync(lab.SourceDb, "insert into users values ($1, 'later', 'L', 'Committed', now()::timestamp, true)", [later]); // B
        var first = await lab.TextsAsync("select id::text from changed_users($1::pg_snapshot)", before); // the first sync reads…
        var watermark = await lab.WatermarkAsync();                                                      // …and keeps this
        Assert.Equal([later.ToString()], first);
        Assert.Contains(await ScalarAsync(held, a, "select pg_current_xact_id()::text"), watermark.Split(':')[2].Split(',')); // A: in progress then

        await a.CommitAsync(); // A commits after B, with rows older than anything B wrote

        var next = await lab.TextsAsync("select id::text from changed_users($1::pg_snapshot)", watermark);
        Assert.Equal(new[] { heldInsert, heldUpdate }.Select(g => g.ToString()).Order(), next.Order());
        Assert.Equal([heldDelete.ToString()], await lab.TextsAsync("select key::text from deleted_users($1::pg_snapshot) as key", watermark));
        foreach (var fetch in new[] { "EFStreamChanges", "NpgsqlCopyChanges" })
        {
            var run = lab.ChangesRun(fetch, SyncTable.Users, watermark);
            var rows = await ChangesLab.ReadAllAsync(fetch, run, UsersRowTable.Instance);
            Assert.Equal(new[] { heldInsert, heldUpdate }.Order(), rows.Select(r => r.Id).Order());
            Assert.Equal([heldDelete.ToString()], await run.ReadDeletedKeysAsync(CancellationToken.None));
        }
    }

    private async Task<Guid> AnyUserAsync(int offset) =>
        (Guid)(await Lab.ScalarAsync(lab.SourceDb, "select id from users where name not like 'held%' order by id offset $1 limit 1", [offset]))!;

    private static async Task ExecuteAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, string sql, Guid id)
    {
        await using var command = new NpgsqlCommand(sql, connection, transaction);
        command.Parameters.Add(new() { Value = id });
        await command.ExecuteNonQueryAsync();
    }

    private static async Task<string> ScalarAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, string sql)
    {
        await using var command = new NpgsqlCommand(sql, connection, transaction);
        return (string)(await command.ExecuteScalarAsync())!;
    }
}
