using Xunit;
using Xunit.Abstractions;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Starts the longest collections first: those marked <see cref="LongRunningAttribute"/>, then by tier, heaviest first
/// (Engine, Lab, Fast; within that, discovery order). It matters when collections run two at a time (TestSetup.cs):
/// begun late, a collection of minutes ran on alone at the end of the suite; begun first, the compose lab's image builds
/// (minutes on a fresh machine, mostly waiting on downloads) overlap the labs, and the short Fast collections fill the
/// gaps the last labs leave.
/// </summary>
public sealed class HeaviestTierFirst : ITestCollectionOrderer
{
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections)
    {
        var weight = Weights();
        var longRunning = LongRunning();
        return testCollections.OrderByDescending(c => longRunning.Contains(c.DisplayName)).ThenByDescending(c => weight.GetValueOrDefault(c.DisplayName));
    }

    /// <summary>The collections marked long-running, on their definition or on the class that is the collection.</summary>
    public static IReadOnlySet<string> LongRunning() =>
        typeof(HeaviestTierFirst).Assembly.GetTypes()
            .Where(type => type.IsDefined(typeof(LongRunningAttribute), inherit: false))
            .Select(type => type.GetCustomAttributesData().SingleOrDefault(a => a.AttributeType == typeof(CollectionDefinitionAttribute))?.ConstructorArguments[0].Value as string
                            ?? CollectionOf(type))
            .ToHashSet(StringComparer.Ordinal);

    /// <summary>
    /// Each collection's heaviest tier among its classes, by the name xunit gives it: the [Collection] name, or
    /// "Test collection for" and the class's full name for a class that names none (xunit 2's collection per class).
    /// </summary>
    public static IReadOnlyDictionary<string, int> Weights() =>
        Tiers.TestClasses()
            .GroupBy(CollectionOf, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.SelectMany(Tiers.Of).Select(Tiers.Rank).DefaultIfEmpty(0).Max(), StringComparer.Ordinal);

    public static string CollectionOf(Type type) =>
        type.GetCustomAttributesData().SingleOrDefault(a => a.AttributeType == typeof(CollectionAttribute))?.ConstructorArguments[0].Value as string
        ?? $"Test collection for {type.FullName}";
}
