using System.Reflection;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The suite's tiers, chosen with `./test.sh --tier`: Fast (no process, no database), Lab (PostgreSQL clusters and the
/// services, in process or as processes), Engine (Podman, shaped links, whole runs of the benchmark command). A test
/// class outside every tier would run only in the whole suite, never in a developer's loop, so none may be.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class TierTests
{
    public static readonly IReadOnlyList<string> Tiers = ["Fast", "Lab", "Engine"];

    [Fact]
    public void Every_test_class_is_in_exactly_one_tier()
    {
        var wrong = typeof(TierTests).Assembly.GetTypes()
            .Where(type => type.GetMethods().Any(m => m.GetCustomAttribute<FactAttribute>() is not null))
            .Select(type => (type.Name, Tiers: TiersOf(type)))
            .Where(t => t.Tiers.Count != 1 || !Tiers.Contains(t.Tiers[0]))
            .Select(t => $"{t.Name}: [{string.Join(", ", t.Tiers)}]")
            .ToList();
        Assert.True(wrong.Count == 0, $"Test classes not in exactly one of {string.Join(", ", Tiers)}:\n{string.Join('\n', wrong)}");
    }

    [Fact]
    public void The_test_command_knows_every_tier()
    {
        var script = File.ReadAllText(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "test.sh"));
        foreach (var tier in Tiers)
        {
            Assert.Contains(tier.ToLowerInvariant(), script);
        }
    }

    private static List<string> TiersOf(Type type) =>
        type.GetCustomAttributesData()
            .Where(a => a.AttributeType == typeof(TraitAttribute) && (string?)a.ConstructorArguments[0].Value == "Tier")
            .Select(a => (string)a.ConstructorArguments[1].Value!)
            .ToList();
}
