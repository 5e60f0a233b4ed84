using SomeService;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The linq2db and COPY merge writers over real HTTP with the change fetches: from a target equal to the source at its
/// watermark, a share of the source changed (updates, inserts, deletes), a run delivers only what changed and the deleted
/// keys, and the writer brings the target equal to the source (the full fetches × every merge writer: MergeTests).
/// </summary>
[Collection(MergeCollection.Name)]
public sealed class ChangeFetchMergeTests(MergeLab lab)
{
    private static readonly string[] LibraryMerges = ["Linq2DBMerge", "Linq2DBTempMerge", "NpgsqlCopyMerge", "NpgsqlCopyRawMerge"];

    /// <summary>Each of these writers × every change fetch it can run with, on each table.</summary>
    public static TheoryData<string, string, string> ChangeFetchRuns()
    {
        var catalog = ApproachRegistry.Catalog;
        var data = new TheoryData<string, string, string>();
        foreach (var (fetch, insert) in catalog.RunnableCombinations.Where(c => catalog[c.Fetch].Changes && LibraryMerges.Contains(c.Insert.Name)))
        {
            foreach (var table in SyncTable.All)
            {
                data.Add(fetch.Name, insert.Name, table.Name);
            }
        }

        return data;
    }

    [Fact]
    public void Every_library_merge_writer_is_in_the_catalogue_and_merges()
    {
        Assert.All(LibraryMerges, name => Assert.True(ApproachRegistry.Catalog[new InsertApproach(name)].Merges, name));
        Assert.NotEmpty(ChangeFetchRuns());
    }

    [Theory]
    [MemberData(nameof(ChangeFetchRuns))]
    public async Task A_change_fetch_merged_brings_a_changed_target_equal_to_the_source(string fetch, string insert, string tableName)
    {
        var table = SyncTable.Named(tableName);
        var changes = await lab.ChangeSourceAfterBaselineAsync(table, share: 0.05, seed: 23);

        var run = await lab.SyncTableAsync(fetch, insert, table);

        Assert.True(run.Status == RunStatus.Succeeded && run.Verified, $"{run.Status}: {run.Error}");
        var source = await Lab.ReadChecksumAsync(lab.SourceDb, table);
        Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb, table));
        Assert.Equal(source, run.Target);
        // Only the changes travelled: the rows updated or inserted, and the keys deleted.
        Assert.Equal(changes.Updated + changes.Inserted, run.RowsMerged);
        Assert.Equal(changes.Deleted, run.RowsDeleted);
        Assert.Equal(run.SourceSnapshot?.Visible, await lab.ReadWatermarkAsync(table));
    }
}
