using Xunit;
using Xunit.Sdk;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The suite's tiers (<see cref="Tiers"/>). A test class outside every tier would run only in the whole suite, never in a
/// developer's loop, so none may be; and the heaviest start first (<see cref="HeaviestTierFirst"/>).
/// </summary>
[Trait("Tier", "Fast")]
public sealed class TierTests
{
    [Fact]
    public void Every_test_class_is_in_exactly_one_tier()
    {
        var wrong = Tiers.TestClasses()
            .Select(type => (type.Name, Tiers: Tiers.Of(type)))
            .Where(t => t.Tiers.Count != 1 || !Tiers.Names.Contains(t.Tiers[0]))
            .Select(t => $"{t.Name}: [{string.Join(", ", t.Tiers)}]")
            .ToList();
        Assert.True(wrong.Count == 0, $"Test classes not in exactly one of {string.Join(", ", Tiers.Names)}:\n{string.Join('\n', wrong)}");
    }

    [Fact]
    public void The_test_command_knows_every_tier()
    {
        var script = File.ReadAllText(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "test.sh"));
        foreach (var tier in Tiers.Names)
        {
            Assert.Contains(tier.ToLowerInvariant(), script);
        }
    }

    /// <summary>
    /// The collections as xunit itself makes them (its collection-per-class factory, the suite's default): each is
    /// weighed by its heaviest class's tier, and the orderer puts the long-running ones first (each marked one is a
    /// collection xunit makes), then Engine's before Lab's before Fast's.
    /// </summary>
    [Fact]
    public void Collections_start_heaviest_tier_first()
    {
        var factory = new CollectionPerClassTestCollectionFactory(new TestAssembly(Reflector.Wrap(typeof(Tiers).Assembly)), new NullMessageSink());
        var weights = HeaviestTierFirst.Weights();
        var collections = Tiers.TestClasses().Select(type => (Type: type, Collection: factory.Get(Reflector.Wrap(type)))).ToList();
        foreach (var (type, collection) in collections)
        {
            Assert.True(weights.TryGetValue(collection.DisplayName, out var weight) && weight >= Tiers.Rank(Tiers.Of(type)[0]),
                $"{type.Name}'s collection '{collection.DisplayName}' is not weighed by its tier ({string.Join(", ", Tiers.Of(type))})");
        }

        var longRunning = HeaviestTierFirst.LongRunning();
        Assert.Contains(HeaviestTierFirst.CollectionOf(typeof(ComposeEngineTests)), longRunning);
        Assert.Contains(FaultCollection.Name, longRunning);
        Assert.Subset(weights.Keys.ToHashSet(), longRunning.ToHashSet());
        var ordered = new HeaviestTierFirst().OrderTestCollections(collections.Select(c => c.Collection).Distinct().Reverse())
            .Select(c => (LongRunning: longRunning.Contains(c.DisplayName), Weight: weights[c.DisplayName])).ToList();
        Assert.Equal(ordered.OrderByDescending(c => c.LongRunning).ThenByDescending(c => c.Weight), ordered);
        Assert.Equal(longRunning.Count, ordered.TakeWhile(c => c.LongRunning).Count());
        Assert.Equal(Tiers.Rank("Fast"), ordered[^1].Weight);
    }
}
