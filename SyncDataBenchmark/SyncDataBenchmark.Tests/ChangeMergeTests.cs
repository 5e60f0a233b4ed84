using System.Net;
using SomeService;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A change fetch (Changes = true) with a merge writer brings exactly the changes since the target's watermark (rows
/// updated and inserted, keys deleted) and leaves the target equal to the source; without a merge writer it cannot
/// run, and without a watermark it fails naming why.
/// </summary>
[Collection(MergeCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangeMergeTests(MergeLab lab)
{
    private static ApproachCatalog Catalog => ApproachRegistry.Catalog;

    private static IEnumerable<FetchApproach> ChangeFetches => Catalog.Fetches.Where(f => Catalog[f].Changes);

    public static TheoryData<string> ChangeFetchNames() => [.. ChangeFetches.Select(f => f.Name)];

    /// <summary>Every merge writer × every change fetch it can run with, on each table.</summary>
    public static TheoryData<string, string, string> ChangeMerges()
    {
        var data = new TheoryData<string, string, string>();
        foreach (var (fetch, insert) in Catalog.RunnableCombinations.Where(c => Catalog[c.Fetch].Changes))
        {
            foreach (var table in SyncTable.All)
            {
                data.Add(fetch.Name, insert.Name, table.Name);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ChangeMerges))]
    public async Task A_merge_fed_the_changes_brings_a_changed_target_equal_to_the_source(string fetch, string insert, string tableName)
    {
        var table = SyncTable.Named(tableName);
        var changes = await lab.ChangeSourceAfterBaselineAsync(table, share: 0.05, seed: 5);

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

    [Fact]
    public async Task A_change_fetch_with_a_writer_that_reloads_is_refused_with_400_naming_the_merge_writers()
    {
        var reloads = Catalog.Inserts.Where(i => !Catalog[i].Merges).ToList();
        var mergeWriters = Catalog.Inserts.Where(i => Catalog[i].Merges).ToList();
        Assert.NotEmpty(ChangeFetches);
        foreach (var fetch in ChangeFetches)
        {
            foreach (var insert in reloads)
            {
                using var response = await lab.Api.TriggerAsync(fetch.Name, insert.Name, wait: true);
                var body = await response.Content.ReadAsStringAsync();

                Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{fetch} × {insert}: {(int)response.StatusCode} {body}");
                using var problem = System.Text.Json.JsonDocument.Parse(body);
                var why = problem.RootElement.GetProperty("errors").GetProperty("i")[0].GetString();
                // A COPY-bytes writer with a JSON change fetch is refused for its wire format first.
                if (!Catalog[insert].CopyBytes || Catalog[fetch].CopyBytes)
                {
                    Assert.All(mergeWriters, m => Assert.Contains("i=" + m.Name, why));
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(ChangeFetchNames))]
    public async Task A_change_fetch_without_a_watermark_fails_naming_the_cause_and_leaves_the_target(string fetch)
    {
        var table = SyncTable.Users;
        await lab.ChangeSourceAfterBaselineAsync(table, share: 0.01, seed: 3);
        await Lab.ScalarAsync(lab.TargetDb, "delete from sync_watermarks where table_name = 'users'");
        var before = await Lab.ReadChecksumAsync(lab.TargetDb, table);

        var run = await lab.SyncTableAsync(fetch, "EFMerge", table);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("no watermark for users: a verified full sync must run first", run.Error);
        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb, table));
        Assert.Null(await lab.ReadWatermarkAsync(table));
    }
}
