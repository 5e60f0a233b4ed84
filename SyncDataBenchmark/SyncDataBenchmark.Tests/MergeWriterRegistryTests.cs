using SomeService;
using SomeService.Insert;
using SomeService.Tables;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the catalogue's Merges says what a writer does. A change fetch may reach only a writer that merges, and a
/// writer's CopyBytes and Merges are its interface's [WriterKind], never its own: the catalogue refuses a writer that
/// implements no kind or two, or says a kind's fact itself, and one that carries a described table without naming its library.
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

    public static TheoryData<Type, bool, bool, string?> Declarations() => new()
    {
        { typeof(AReload), false, false, null },
        { typeof(AMerge), false, true, null },
        { typeof(ABytesMerge), true, true, null },
        { typeof(TwoWays), false, false, "TwoWays must implement exactly one writer interface with [WriterKind]; it implements 2." },
        { typeof(NoWay), false, false, "NoWay must implement exactly one writer interface with [WriterKind]; it implements 0." },
        { typeof(SaysCopyBytes), false, false, "SaysCopyBytes declares an insert with a fetch's fact (CopyBytes, Changes or Route): its interface says what it consumes." },
        { typeof(CarriesWithoutLibrary), false, false, "CarriesWithoutLibrary declares GeneratedRows but no Library: a refusal names the library it writes through." },
    };

    [Theory]
    [MemberData(nameof(Declarations))]
    public void A_writer_s_kind_is_its_interface_s_and_one_that_has_none_or_two_is_refused(Type writer, bool copyBytes, bool merges, string? refusal)
    {
        if (refusal is null)
        {
            Assert.Equal(new ApproachInfo(ApproachKind.Insert, writer.Name, copyBytes, Pages: false, Batches: false, Route: null, Merges: merges), ApproachInfo.Of(writer));
        }
        else
        {
            Assert.Equal(refusal, Assert.Throws<InvalidOperationException>(() => ApproachInfo.Of(writer)).Message);
        }
    }

    [Approach(ApproachKind.Insert, "AReload")]
    private sealed class AReload : IRowWriter
    {
        public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();
    }

    [Approach(ApproachKind.Insert, "AMerge")]
    private sealed class AMerge : IMergeWriter
    {
        public Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();
    }

    [Approach(ApproachKind.Insert, "ABytesMerge")]
    private sealed class ABytesMerge : ICopyBytesMergeWriter
    {
        public Task<long?> MergeAsync(Stream binaryCopy, MergeScope scope, WriteTarget target, CancellationToken ct) => throw new NotSupportedException();
    }

    [Approach(ApproachKind.Insert, "TwoWays")]
    private sealed class TwoWays : IMergeWriter, IRowWriter
    {
        public Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();

        public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();

        // The compiler refuses the two interfaces' feeds unless the class settles which: settled, the catalogue must still refuse it.
        Task<long?> ITableWriter.WriteRowsAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope? scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct) =>
            throw new NotSupportedException();
    }

    [Approach(ApproachKind.Insert, "NoWay")]
    private sealed class NoWay : ITableWriter;

    [Approach(ApproachKind.Insert, "SaysCopyBytes", CopyBytes = true)]
    private sealed class SaysCopyBytes : IRowWriter
    {
        public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();
    }

    [Approach(ApproachKind.Insert, "CarriesWithoutLibrary", Traits = ApproachTraits.GeneratedRows)]
    private sealed class CarriesWithoutLibrary : IRowWriter
    {
        public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
            where TRow : class => throw new NotSupportedException();
    }
}
