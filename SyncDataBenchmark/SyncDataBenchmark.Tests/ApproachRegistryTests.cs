using SomeService;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataSource.Fetches;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: every approach name has exactly one implementation, found by enumeration, and vice versa; a fetch's
/// facts are declared once, for both halves; the runner reads the same catalogue as SomeService builds.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ApproachRegistryTests
{
    private static ApproachCatalog Approaches => ApproachRegistry.Catalog;

    [Fact]
    public void Every_fetch_name_has_a_consumer_and_a_server_endpoint_and_every_one_of_them_a_name()
    {
        Assert.Equal(Approaches.Fetches.Order(), ApproachRegistry.Consumers.Keys.Order());
        Assert.Equal(Approaches.Fetches.Order(), FetchEndpoints.All.Keys.Order());
        Assert.All(ApproachRegistry.Consumers.Values, t => Assert.True(typeof(IFetchConsumer).IsAssignableFrom(t)));
    }

    [Fact]
    public void Each_fetch_is_declared_once_for_both_halves_and_its_consumer_reads_its_wire_format()
    {
        Assert.Equal(ApproachCatalog.DeclaredFetches.Select(f => f.Name).Order(), Approaches.Fetches.Select(f => f.Name).Order());
        foreach (var fetch in Approaches.Fetches)
        {
            var declared = Approaches[fetch];
            Assert.True(declared.CopyBytes == typeof(IBinaryCopyConsumer).IsAssignableFrom(ApproachRegistry.Consumers[fetch]),
                $"{fetch}: CopyBytes = {declared.CopyBytes}, but its consumer {(declared.CopyBytes ? "does not implement" : "implements")} {nameof(IBinaryCopyConsumer)}.");
        }

        // Only the fetches' own classes (SyncData.Shared/Fetches) declare a fetch: no half repeats a fact.
        Assert.DoesNotContain(ApproachRegistry.Consumers.Values.Concat(FetchEndpoints.All.Values), t => t.IsDefined(typeof(ApproachAttribute), inherit: false));
        Assert.Equal(Approaches.Fetches.Count, Approaches.Fetches.Select(f => Approaches[f].Route).Distinct().Count());
    }

    [Fact]
    public void Every_insert_name_has_one_writer_that_consumes_rows_or_COPY_bytes()
    {
        Assert.Equal(Approaches.Inserts.Order(), ApproachRegistry.Writers.Keys.Order());
        foreach (var (insert, type) in ApproachRegistry.Writers)
        {
            var bytes = typeof(ICopyBytesWriter).IsAssignableFrom(type) || typeof(ICopyBytesMergeWriter).IsAssignableFrom(type);
            Assert.True(bytes == Approaches[insert].CopyBytes, $"{insert}: CopyBytes = {Approaches[insert].CopyBytes}, but {type.Name} consumes {(bytes ? "COPY bytes" : "rows")}.");
        }
    }

    [Fact]
    public void The_compatibility_rule_matches_what_writers_consume()
    {
        foreach (var (fetch, consumerType) in ApproachRegistry.Consumers)
        {
            foreach (var (insert, writerType) in ApproachRegistry.Writers)
            {
                var readsRows = typeof(IRowWriter).IsAssignableFrom(writerType) || typeof(IMergeWriter).IsAssignableFrom(writerType);
                var readsBytes = typeof(ICopyBytesWriter).IsAssignableFrom(writerType) || typeof(ICopyBytesMergeWriter).IsAssignableFrom(writerType);
                // A change fetch delivers only what changed: only a writer that merges can apply it.
                var merges = typeof(IMergeWriter).IsAssignableFrom(writerType) || typeof(ICopyBytesMergeWriter).IsAssignableFrom(writerType);
                var canRun = (readsRows || (readsBytes && typeof(IBinaryCopyConsumer).IsAssignableFrom(consumerType)))
                             && (merges || !Approaches[fetch].Changes);
                Assert.True(canRun == (Approaches.Incompatibility(fetch, insert) is null), $"{fetch} × {insert}: writer/source types say {canRun}, the catalogue disagrees.");
            }
        }
    }

    [Fact]
    public void The_runner_reads_the_same_catalogue_from_SomeService_metadata()
    {
        // The SomeService the runner starts (its own build output) and the one loaded in this test process.
        Assert.Equal(Approaches.All, ApproachMetadata.Catalog.All);
        Assert.Equal(Approaches.All, ApproachMetadata.Read(typeof(ApproachRegistry).Assembly.Location).All);
    }

    [Fact]
    public void The_runner_never_loads_SomeService()
    {
        _ = ApproachMetadata.Read(Lab.BuiltAssembly("SomeService"));
        Assert.DoesNotContain(AppDomain.CurrentDomain.GetAssemblies(),
            a => !a.IsDynamic && string.Equals(a.Location, Path.GetFullPath(Lab.BuiltAssembly("SomeService")), StringComparison.Ordinal));
    }

    [Fact]
    public void Each_approach_class_is_named_in_no_other_non_test_file()
    {
        var classes = ApproachRegistry.Consumers.Values.Concat(ApproachRegistry.Writers.Values).Concat(FetchEndpoints.All.Values).ToList();
        foreach (var type in classes)
        {
            var naming = FilesNaming(type);
            Assert.True(naming.SequenceEqual([type.Name + ".cs"]), $"{type.Name} is named in {string.Join(", ", naming)}; only its own file may name it.");
        }
    }

    /// <summary>
    /// A fetch's declaring class (SyncData.Shared/Fetches) is named by its own file and its two halves' (the endpoint and
    /// the consumer, which say which fetch they serve) and nowhere else: what another part needs of a fetch it reads
    /// from the declarations (a route, a capability), so adding or removing a fetch touches its own files alone.
    /// Watched fail with DescribedTableEndpoints, DescribedTableReach and ReplicationStream naming NpgsqlCopyFetch & co.
    /// </summary>
    [Fact]
    public void Each_fetch_is_named_only_by_its_own_files_and_its_halves()
    {
        foreach (var (type, info) in ApproachCatalog.Declared(typeof(IFetch).Assembly, ApproachKind.Fetch))
        {
            var fetch = new FetchApproach(info.Name);
            string[] own = [.. new[] { type, FetchEndpoints.All[fetch], ApproachRegistry.Consumers[fetch] }.Select(t => t.Name + ".cs").Order(StringComparer.Ordinal)];
            var naming = FilesNaming(type);
            Assert.True(naming.Order(StringComparer.Ordinal).SequenceEqual(own),
                $"{type.Name} is named in {string.Join(", ", naming.Except(own))}; only its own file and its halves ({string.Join(", ", own)}) may name it.");
        }
    }

    private static readonly Lazy<List<(string Path, string Text)>> Sources = new(() =>
        Directory.EnumerateFiles(Path.Combine(Lab.RepositoryRoot, "SyncDataBenchmark"), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                        && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                        && !f.Contains("SyncDataBenchmark.Tests", StringComparison.Ordinal))
            .Select(f => (Path: f, Text: File.ReadAllText(f)))
            .ToList());

    /// <summary>The non-test source files that name <paramref name="type"/> as a whole word.</summary>
    private static List<string> FilesNaming(Type type)
    {
        var word = new System.Text.RegularExpressions.Regex($@"\b{type.Name}\b");
        return [.. Sources.Value.Where(s => word.IsMatch(s.Text)).Select(s => Path.GetFileName(s.Path))];
    }
}
