using Xunit;
using Xunit.Abstractions;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Starts the collections of the heaviest tier first (Engine, then Lab, then Fast; within a tier, discovery order),
/// two at a time (TestSetup.cs). On a fresh machine the compose lab spends minutes building its images, mostly waiting
/// on downloads: started first, that overlaps the labs instead of running alone at the end, and the short Fast
/// collections fill the gaps the last labs leave.
/// </summary>
public sealed class HeaviestTierFirst : ITestCollectionOrderer
{
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections)
    {
        var weight = Weights();
        return testCollections.OrderByDescending(c => weight.GetValueOrDefault(c.DisplayName));
    }

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
