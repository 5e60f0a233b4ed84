using SomeService;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The merge writers (Merges = true) bring a populated target that differs from the source (rows updated, inserted and
/// deleted since the target equalled it) up to date with a full fetch, and every verified run, and no failed one,
/// stores the run's snapshot as the table's watermark in the target.
/// </summary>
[Collection(MergeCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class MergeTests(MergeLab lab)
{
    /// <summary>Every merge writer × every full fetch it can run with, on each table.</summary>
    public static TheoryData<string, string, string> FullFetchMerges()
    {
        var catalog = ApproachRegistry.Catalog;
        var data = new TheoryData<string, string, string>();
        foreach (var (fetch, insert) in catalog.RunnableCombinations.Where(c => catalog[c.Insert].Merges && !catalog[c.Fetch].Changes))
        {
            foreach (var table in SyncTable.All)
            {
                data.Add(fetch.Name, insert.Name, table.Name);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(FullFetchMerges))]
    public async Task A_merge_fed_the_whole_table_brings_a_changed_target_equal_to_the_source(string fetch, string insert, string tableName)
    {
        var table = SyncTable.Named(tableName);
        await lab.ChangeSourceAfterBaselineAsync(table, share: 0.05, seed: 7);

        var run = await lab.SyncTableAsync(fetch, insert, table);

        Assert.True(run.Status == RunStatus.Succeeded && run.Verified, $"{run.Status}: {run.Error}");
        // Independent of both services: both tables read directly.
        var source = await Lab.ReadChecksumAsync(lab.SourceDb, table);
        Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb, table));
        Assert.Equal(source, run.Target);
        Assert.Equal(source.Rows, run.Rows);
        Assert.Equal(source.Rows, run.RowsMerged);
        Assert.Null(run.RowsDeleted);
        Assert.NotNull(run.SourceSnapshot?.Visible);
        Assert.Equal(run.SourceSnapshot.Visible, await lab.ReadWatermarkAsync(table));
    }

    [Fact]
    public async Task A_verified_run_stores_its_snapshot_as_the_watermark_and_a_failed_run_does_not()
    {
        var table = SyncTable.Users;
        var baseline = await ChangedBaseline.CopyWithWatermarkAsync(lab.SourceData, lab.TargetData, table, CancellationToken.None);
        await ChangedBaseline.ChangeSourceAsync(lab.SourceData, table, share: 0.02, seed: 11, CancellationToken.None);
        // Every row the merge writes has is_active flipped on its way in: the target cannot verify.
        await Lab.ScalarAsync(lab.TargetDb, """
            create function flip_is_active() returns trigger language plpgsql as $$
            begin new.is_active := not new.is_active; return new; end $$;
            create trigger flip_is_active before insert or update on users for each row execute function flip_is_active();
            """);
        try
        {
            var failed = await lab.SyncTableAsync("NpgsqlCopy", "EFMerge", table);

            Assert.Equal(RunStatus.Failed, failed.Status);
            Assert.Contains("Verification failed", failed.Error);
            Assert.Equal(baseline, await lab.ReadWatermarkAsync(table));
        }
        finally
        {
            await Lab.ScalarAsync(lab.TargetDb, "drop function flip_is_active() cascade");
        }

        // A reload stores one too: after any verified run the target equals the source at its watermark.
        var reload = await lab.SyncTableAsync("NpgsqlCopy", "NpgsqlCopy", table);
        Assert.True(reload.Status == RunStatus.Succeeded && reload.Verified, $"{reload.Status}: {reload.Error}");
        Assert.NotEqual(baseline, reload.SourceSnapshot?.Visible);
        Assert.Equal(reload.SourceSnapshot?.Visible, await lab.ReadWatermarkAsync(table));
    }
}
