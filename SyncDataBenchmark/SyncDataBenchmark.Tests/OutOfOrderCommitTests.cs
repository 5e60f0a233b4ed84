using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The watermark misses no row (issue 39): a source transaction open across one change sync, committed after it with
/// rows older (by timestamp) than anything that sync brought, has its rows arrive in the next sync. A cursor on a
/// timestamp or on the highest transaction id seen would skip them; the run's snapshot, which lists the transactions
/// still in progress, does not.
/// </summary>
[Collection(MergeCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class OutOfOrderCommitTests(MergeLab lab)
{
    public static TheoryData<string> ChangeFetchNames() => ChangeMergeTests.ChangeFetchNames();

    [Theory]
    [MemberData(nameof(ChangeFetchNames))]
    public async Task Rows_of_a_transaction_committed_after_a_sync_arrive_in_the_next_one(string fetch)
    {
        var table = SyncTable.Users;
        await ChangedBaseline.CopyWithWatermarkAsync(lab.SourceData, lab.TargetData, table, CancellationToken.None);

        // Begun first, committed last: its rows are dated long before every other change.
        await using var late = new NpgsqlConnection(lab.SourceDb);
        await late.OpenAsync();
        await using var lateTransaction = await late.BeginTransactionAsync();
        var lateIds = new[] { Guid.CreateVersion7(), Guid.CreateVersion7() };
        await using (var insert = new NpgsqlCommand(
                         "insert into users (id, name, patronymic, surname, created_at, is_active) " +
                         "select id, 'late', 'late', 'late', '2000-01-01', true from unnest($1::uuid[]) as id", late, lateTransaction))
        {
            insert.Parameters.Add(new() { Value = lateIds });
            await insert.ExecuteNonQueryAsync();
        }

        // A later transaction commits while the first is still open; the first sync brings it, not the open one.
        var changes = await ChangedBaseline.ChangeSourceAsync(lab.SourceData, table, share: 0.02, seed: 13, CancellationToken.None);
        var first = await lab.SyncTableAsync(fetch, "EFMerge", table);
        Assert.True(first.Status == RunStatus.Succeeded && first.Verified, $"{first.Status}: {first.Error}");
        Assert.Equal(changes.Updated + changes.Inserted, first.RowsMerged);
        Assert.Equal(0L, await CountLateRowsAsync(lateIds));

        await lateTransaction.CommitAsync();
        var second = await lab.SyncTableAsync(fetch, "EFMerge", table);

        Assert.True(second.Status == RunStatus.Succeeded && second.Verified, $"the late rows did not arrive: {second.Status}: {second.Error}");
        Assert.Equal(2L, await CountLateRowsAsync(lateIds));
        Assert.Equal(2L, second.RowsMerged);
        Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb, table), await Lab.ReadChecksumAsync(lab.TargetDb, table));
    }

    private async Task<long> CountLateRowsAsync(Guid[] ids) =>
        (long)(await Lab.ScalarAsync(lab.TargetDb, "select count(*) from users where id = any($1)", [ids]))!;
}
