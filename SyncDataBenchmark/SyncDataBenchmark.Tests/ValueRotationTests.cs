using SomeService;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the failing-value theories run each fetch into a few parsing writers per value (Consumers.ForAValueNoRowHolds);
/// across as many values as a fetch has parsing writers, every combination is still met, and every raw relay every time.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ValueRotationTests
{
    private static bool Relay((string Fetch, string Insert) c) => ApproachRegistry.Catalog[new InsertApproach(c.Insert)].CopyBytes;

    [Fact]
    public void Across_the_turns_every_full_fetch_combination_is_run()
    {
        var all = Consumers.FullFetchCombinations.Select(c => (c.Fetch.Name, c.Insert.Name)).ToHashSet();
        var writers = all.Where(c => !Relay(c)).GroupBy(c => c.Item1).Max(g => g.Count());
        var turns = (writers + Consumers.ParsingWritersPerValue - 1) / Consumers.ParsingWritersPerValue;

        var met = Enumerable.Range(0, turns).SelectMany(Consumers.ForAValueNoRowHolds).ToHashSet();

        Assert.Equal(all.Order(), met.Order());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(10)]
    public void Each_turn_runs_every_relay_and_each_fetch_into_its_share_of_parsing_writers(int turn)
    {
        var run = Consumers.ForAValueNoRowHolds(turn).ToList();

        Assert.Equal(Consumers.FullFetchCombinations.Select(c => (c.Fetch.Name, c.Insert.Name)).Where(Relay).Order(), run.Where(Relay).Order());
        Assert.All(run.Where(c => !Relay(c)).GroupBy(c => c.Fetch), g => Assert.Equal(Consumers.ParsingWritersPerValue, g.Distinct().Count()));
        Assert.Equal(Consumers.FullFetchCombinations.Select(c => c.Fetch.Name).Distinct().Order(), run.Where(c => !Relay(c)).Select(c => c.Fetch).Distinct().Order());
    }

    [Fact]
    public void The_failing_value_theories_have_enough_values_to_meet_every_writer()
    {
        var writers = Consumers.FullFetchCombinations.Where(c => !ApproachRegistry.Catalog[c.Insert].CopyBytes).GroupBy(c => c.Fetch).Max(g => g.Count());

        Assert.True(OrdersUnrepresentableTests.Values.Count() * Consumers.ParsingWritersPerValue >= writers,
            $"{OrdersUnrepresentableTests.Values.Count()} values × {Consumers.ParsingWritersPerValue}, {writers} parsing writers a fetch");
    }
}
