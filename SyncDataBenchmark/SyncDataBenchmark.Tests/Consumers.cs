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

    /// <summary>
    /// For a value no parsing writer can be handed (it fails where the fetch meets it, before any writer sees it): every
    /// combination into a raw relay (CopyBytes: the value must cross exactly), and each full fetch into
    /// <see cref="ParsingWritersPerValue"/> parsing writers that turn with <paramref name="turn"/> (the value's place in its theory), so that across a theory's values
    /// every fetch fails into every parsing writer and each writer's rollback is met, without running the same fetch-side
    /// failure through all of them for every value.
    /// </summary>
    public static IEnumerable<(string Fetch, string Insert)> ForAValueNoRowHolds(int turn)
    {
        var catalog = ApproachRegistry.Catalog;
        var combinations = FullFetchCombinations.ToList();
        var relays = combinations.Where(c => catalog[c.Insert].CopyBytes);
        var parsed = combinations.Where(c => !catalog[c.Insert].CopyBytes).GroupBy(c => c.Fetch.Name, StringComparer.Ordinal).OrderBy(g => g.Key, StringComparer.Ordinal)
            .SelectMany((byFetch, i) =>
            {
                var writers = byFetch.OrderBy(c => c.Insert.Name, StringComparer.Ordinal).ToList();
                return Enumerable.Range(0, Math.Min(ParsingWritersPerValue, writers.Count)).Select(k => writers[(turn * ParsingWritersPerValue + k + i) % writers.Count]);
            });
        return relays.Concat(parsed).Select(c => (c.Fetch.Name, c.Insert.Name));
    }

    /// <summary>How many parsing writers each fetch fails into per value: with 11 writers a fetch, 6 values meet them all.</summary>
    public const int ParsingWritersPerValue = 2;

    /// <summary>The turn of theory data row <paramref name="value"/> among <paramref name="values"/>: its index, for <see cref="ForAValueNoRowHolds"/>.</summary>
    public static int TurnOf(TheoryData values, params object[] value) =>
        values.Select((row, i) => (row, i)).Single(x => x.row.SequenceEqual(value)).i;

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
