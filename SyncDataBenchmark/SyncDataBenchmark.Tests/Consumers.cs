using Microsoft.Extensions.Options;
using SomeService;
using SomeService.Fetch;
using SomeService.Tables;
using SomeService.Sync;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// SomeService's own consumer of each fetch approach, found by enumeration and pointed at a source: how a test reads
/// the source the way a run does, so a new fetch is tested by its own class, never mistaken for another.
/// </summary>
public static class Consumers
{
    /// <summary>
    /// The full fetches: every one that reads the whole table. A change fetch (Changes) reads only what changed since a
    /// watermark and runs only with a merge writer; its own tests are ChangeConsumerTests and ChangeEndpointTests.
    /// </summary>
    public static IEnumerable<FetchApproach> FullFetches => ApproachRegistry.Catalog.Fetches.Where(f => !ApproachRegistry.Catalog[f].Changes);

    public static IEnumerable<string> Fetches => FullFetches.Select(f => f.Name);

    /// <summary>
    /// Every runnable combination of a full fetch: what the empty-target tests run (a merge writer among them, fed the
    /// whole table); the change fetches' combinations need a watermark and are ChangeMergeTests'.
    /// </summary>
    public static IEnumerable<(FetchApproach Fetch, InsertApproach Insert)> FullFetchCombinations =>
        ApproachRegistry.Catalog.RunnableCombinations.Where(c => !ApproachRegistry.Catalog[c.Fetch].Changes);

    public static TheoryData<string> FetchNames() => new(Fetches);

    /// <summary>Fetches that answer with one long response (a query held open while the consumer reads).</summary>
    public static TheoryData<string> StreamingFetchNames() => new(FullFetches.Where(f => !ApproachRegistry.Catalog[f].Pages).Select(f => f.Name));

    /// <summary>Each paging fetch with a page size that divides no fixture's row count, and one larger than a lab's default.</summary>
    public static TheoryData<string, int> PagingFetchesAndPageSizes()
    {
        var data = new TheoryData<string, int>();
        foreach (var fetch in FullFetches.Where(f => ApproachRegistry.Catalog[f].Pages))
        {
            data.Add(fetch.Name, 333);
            data.Add(fetch.Name, 4096);
        }

        return data;
    }

    /// <summary>Every row <paramref name="fetch"/>'s own consumer reads from <paramref name="source"/>, as a read of no run.</summary>
    public static IAsyncEnumerable<User> Read(string fetch, HttpClient source, int pageSize = 1000, CancellationToken ct = default) =>
        Read(fetch, source, UsersRowTable.Instance, pageSize, ct);

    /// <summary>Every row of <paramref name="table"/> <paramref name="fetch"/>'s own consumer reads from <paramref name="source"/>, as a read of no run.</summary>
    public static IAsyncEnumerable<TRow> Read<TRow>(string fetch, HttpClient source, RowTable<TRow> table, int pageSize = 1000, CancellationToken ct = default)
        where TRow : class
    {
        var consumer = (IFetchConsumer)Activator.CreateInstance(ApproachRegistry.Consumers[new FetchApproach(fetch)])!;
        var request = new SyncRequest(new FetchApproach(fetch), ApproachRegistry.Catalog.Inserts.First(), pageSize, 1000) { Table = table.Table };
        return consumer.ReadAsync(new ConsumerRun(new SourceClient(source, Options.Create(new SyncOptions())), request, id: null), table, ct);
    }
}
