using System.Reflection;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The suite's tiers, lightest first, chosen with `./test.sh --tier`: Fast (no process, no database), Lab (PostgreSQL
/// clusters and the services, in process or as processes), Engine (Podman, shaped links, whole runs of the benchmark
/// command). A class's tier is its [Trait("Tier", …)].
/// </summary>
public static class Tiers
{
    public static readonly IReadOnlyList<string> Names = ["Fast", "Lab", "Engine"];

    /// <summary>How heavy a tier is: its place in <see cref="Names"/> (Fast 0), or -1 for no tier.</summary>
    public static int Rank(string tier) => Names.ToList().IndexOf(tier);

    /// <summary>The tiers a class declares (TierTests: exactly one of <see cref="Names"/>).</summary>
    public static IReadOnlyList<string> Of(Type type) =>
        type.GetCustomAttributesData()
            .Where(a => a.AttributeType == typeof(TraitAttribute) && (string?)a.ConstructorArguments[0].Value == "Tier")
            .Select(a => (string)a.ConstructorArguments[1].Value!)
            .ToList();

    /// <summary>The test classes of this assembly: every type with a [Fact] or [Theory].</summary>
    public static IEnumerable<Type> TestClasses() =>
        typeof(Tiers).Assembly.GetTypes().Where(type => type.GetMethods().Any(m => m.GetCustomAttribute<FactAttribute>() is not null));
}
