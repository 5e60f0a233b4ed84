using SomeService;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: every approach name has exactly one implementation, found by enumeration, and vice versa.</summary>
public sealed class ApproachRegistryTests
{
    [Fact]
    public void Every_fetch_name_has_a_consumer_and_every_consumer_a_name()
    {
        Assert.Equal(Approaches.Fetches.Order(), ApproachRegistry.Sources.Keys.Order());
        Assert.All(ApproachRegistry.Sources.Values, t => Assert.True(typeof(IUserSource).IsAssignableFrom(t)));
    }

    [Fact]
    public void Every_insert_name_has_a_writer_unless_it_is_blocked_with_a_reason()
    {
        foreach (var insert in Approaches.Inserts)
        {
            var implemented = ApproachRegistry.Writers.ContainsKey(insert);
            var blocked = Approaches.Unavailable.ContainsKey(insert);
            Assert.True(implemented ^ blocked, $"{insert}: implemented={implemented}, blocked={blocked}; exactly one must hold.");
        }

        Assert.All(ApproachRegistry.Writers.Keys, i => Assert.Contains(i, Approaches.Inserts));
    }

    [Fact]
    public void The_shared_compatibility_rule_matches_what_writers_consume()
    {
        foreach (var (fetch, sourceType) in ApproachRegistry.Sources)
        {
            foreach (var (insert, writerType) in ApproachRegistry.Writers)
            {
                var canRun = typeof(IRowWriter).IsAssignableFrom(writerType)
                             || (typeof(ICopyBytesWriter).IsAssignableFrom(writerType) && typeof(IBinaryCopySource).IsAssignableFrom(sourceType));
                Assert.True(canRun == (Approaches.Incompatibility(fetch, insert) is null), $"{fetch} × {insert}: writer/source types say {canRun}, Approaches.Incompatibility disagrees.");
            }
        }
    }
}
