using SomeService;
using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Mvc;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Every runnable fetch × insert combination moves the generated table intact.</summary>
[Collection(MatrixCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class MatrixTests(MatrixLab lab)
{
    public static TheoryData<string, string> Combinations()
    {
        var data = new TheoryData<string, string>();
        foreach (var (fetch, insert) in Consumers.FullFetchCombinations)
        {
            data.Add(fetch.Name, insert.Name);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task Combination_moves_every_row_and_verifies(string fetch, string insert)
    {
        // Doing nothing must not verify: the target starts different from the source.
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        // Names are case-insensitive: send them in lower case.
        var run = await lab.SyncAsync(fetch.ToString().ToLowerInvariant(), insert.ToString().ToLowerInvariant());

        Assert.True(run.Status == RunStatus.Succeeded, $"{run.Status}: {run.Error}");
        Assert.True(run.Verified, run.Error);
        Assert.Equal(fetch.ToString(), run.Fetch);
        Assert.Equal(insert.ToString(), run.Insert);
        Assert.Equal("users", run.Table);
        Assert.Equal(MatrixLab.Rows, run.Rows);

        // Independent of both services: read both tables directly.
        var source = await Lab.ReadChecksumAsync(lab.SourceDb);
        var target = await Lab.ReadChecksumAsync(lab.TargetDb);
        Assert.Equal(MatrixLab.Rows, source.Rows);
        Assert.Equal(source, target);
        Assert.Equal(source, run.Target);

        Assert.True(run.DurationMs > 0);
        Assert.True(run.RowsPerSecond > 0);
        foreach (var figures in new[] { run.SomeService, run.SyncDataSource })
        {
            Assert.NotNull(figures);
            // The services run the default profile (DATAS): a figure, or the reason there is none, never a wrong one.
            Assert.True(figures.AllocatedBytes > 0 || (figures.AllocatedBytes is null && figures.AllocatedBytesUnavailable is not null));
            // The tick sum is there whatever DATAS did. Whether it agrees with GetTotalAllocatedBytes is not asked here:
            // both services share the test host with the other collections' tests running in parallel, and on a loaded
            // machine the in-process EventListener fell behind (a clean CI run: tick sum 36 MB against 486 MB). The
            // agreement is DatasAllocationTests' (a process of its own) and LogicTests' (the rule).
            Assert.True(figures.AllocationTickBytes is not null, figures.AllocationTickUnavailable);
            Assert.NotNull(figures.Runtime);
            Assert.True(figures.PeakWorkingSetBytes > 10_000_000);
            Assert.True(figures.GcGen0 >= 0 && figures.GcGen1 >= 0 && figures.GcGen2 >= 0);
            Assert.NotEmpty(figures.Samples!);
        }

        var stored = await lab.GetRunAsync(run.Id);
        Assert.Equal(run.Status, stored.Status);
        Assert.Equal(run.Target, stored.Target);
    }

    [Theory]
    [MemberData(nameof(Consumers.PagingFetchesAndPageSizes), MemberType = typeof(Consumers))]
    public async Task Paging_with_a_page_size_that_does_not_divide_the_rows_still_verifies(string fetch, int pageSize)
    {
        var run = await lab.SyncAsync($"{fetch}", "NpgsqlCopy", pageSize: pageSize);

        Assert.Equal(RunStatus.Succeeded, run.Status);
        Assert.True(run.Verified);
        Assert.Equal(MatrixLab.Rows, run.Rows);
        Assert.Equal(pageSize, run.PageSize);
    }

    [Fact]
    public async Task Batch_size_is_recorded_for_batching_writers_only()
    {
        var typical = await lab.SyncAsync("NpgsqlCopy", "EFTypical", batchSize: 777);
        var copy = await lab.SyncAsync("NpgsqlCopy", "NpgsqlCopy", batchSize: 777);

        Assert.Equal(777, typical.BatchSize);
        Assert.Null(copy.BatchSize);
        Assert.Null(copy.PageSize);
    }

    [Fact]
    public async Task Runs_are_listed_newest_first_and_unknown_ids_are_404()
    {
        var first = await lab.SyncAsync("NpgsqlCopy", "NpgsqlCopy");
        var second = await lab.SyncAsync("EFStream", "NpgsqlCopy");

        var runs = await lab.Api.ListRunsAsync(2);
        Assert.Equal([second.Id, first.Id], runs.Select(r => r.Id));
        Assert.All(runs, r => Assert.Null(r.SomeService!.Samples));

        using var missing = await lab.Client.GetAsync(SyncRoutes.Run(Guid.NewGuid()));
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }
}
