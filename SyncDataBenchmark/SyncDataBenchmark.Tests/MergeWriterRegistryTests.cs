using SomeService;
using SomeService.Insert;
using SomeService.Tables;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the catalogue's Merges says what a writer does. A change fetch may reach only a writer declared Merges =
/// true, so a merge writer must declare it and a reload (which empties the target) must not; ApproachRegistry refuses
/// a writer that says otherwise, or that consumes no way or two.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class MergeWriterRegistryTests
{
    [Fact]
    public void Every_writer_declares_Merges_exactly_when_it_merges()
    {
        foreach (var (insert, type) in ApproachRegistry.Writers)
        {
            var merges = typeof(IMergeWriter).IsAssignableFrom(type) || typeof(ICopyBytesMergeWriter).IsAssignableFrom(type);
            Assert.True(merges == ApproachRegistry.Catalog[insert].Merges, $"{insert}: {type.Name} {(merges ? "merges" : "reloads")}, the catalogue says Merges = {!merges}.");
        }

        Assert.Contains(new InsertApproach("EFMerge"), ApproachRegistry.Catalog.Inserts.Where(i => ApproachRegistry.Catalog[i].Merges));
        Assert.Contains(new InsertApproach("EFBulkMerge"), ApproachRegistry.Catalog.Inserts.Where(i => ApproachRegistry.Catalog[i].Merges));
        Assert.Contains(new InsertApproach("EFBulk"), ApproachRegistry.Catalog.Inserts.Where(i => !ApproachRegistry.Catalog[i].Merges));
    }

    public static TheoryData<Type, bool, string?> Declarations() => new()
    {
        { typeof(AReload), false, null },
        { typeof(AReload), true, "AReload implements IRowWriter but declares Merges = True." },
        { typeof(AMerge), true, null },
        { typeof(AMerge), false, "AMerge implements IMergeWriter but declares Merges = False." },
        { typeof(ABytesMerge), false, "ABytesMerge implements ICopyBytesMergeWriter but declares Merges = False." },
        { typeof(TwoWays), true, "TwoWays must implement exactly one of IRowWriter, ICopyBytesWriter, IMergeWriter, ICopyBytesMergeWriter." },
        { typeof(NoWay), false, "NoWay must implement exactly one of IRowWriter, ICopyBytesWriter, IMergeWriter, ICopyBytesMergeWriter." },
    };

    [Theory]
    [MemberData(nameof(Declarations))]
    public void The_registry_refuses_a_writer_whose_declaration_is_not_what_it_does(Type writer, bool declaresMerges, string? refusal)
    {
        var declared = new ApproachInfo(ApproachKind.Insert, writer.Name, CopyBytes: false, Pages: false, Batches: false, Route: "", Merges: declaresMerges);
        Assert.Equal(refusal, ApproachRegistry.WriterProblem(writer, declared));
    }

    private sealed class AReload : IRowWriter
    {
        public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();
    }

    private sealed class AMerge : IMergeWriter
    {
        public Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();
    }

    private sealed class ABytesMerge : ICopyBytesMergeWriter
    {
        public Task<long?> MergeAsync(Stream binaryCopy, MergeScope scope, WriteTarget target, CancellationToken ct) => throw new NotSupportedException();
    }

    private sealed class TwoWays : IMergeWriter, IRowWriter
    {
        public Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();

        public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();
    }

    private sealed class NoWay : ITableWriter;
}
