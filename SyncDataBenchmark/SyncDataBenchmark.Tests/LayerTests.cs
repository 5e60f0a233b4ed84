using System.Reflection;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the layers the README draws. The contracts depend on the BCL alone; EF Core is reachable from the
/// services only (the runner and the harness speak SQL); ServiceDefaults stays cross-cutting, the measurement
/// instrument (SyncData.Measurement) on the contracts alone.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class LayerTests
{
    [Fact]
    public void The_contracts_reference_nothing_but_the_base_class_library()
    {
        var contracts = typeof(SyncData.Shared.User).Assembly;
        var outside = contracts.GetReferencedAssemblies()
            .Select(a => a.Name!)
            .Where(n => !n.StartsWith("System", StringComparison.Ordinal) && n is not ("netstandard" or "mscorlib"))
            .ToList();
        Assert.True(outside.Count == 0, $"SyncData.Shared references {string.Join(", ", outside)}.");
        var project = System.Xml.Linq.XDocument.Load(Path.Combine(Lab.RepositoryRoot, "SyncDataBenchmark", "SyncData.Shared", "SyncData.Shared.csproj"));
        Assert.DoesNotContain(project.Descendants(), e => e.Name.LocalName is "PackageReference" or "ProjectReference" or "FrameworkReference");
    }

    [Theory]
    [InlineData("SyncDataBenchmark.Runner")]
    [InlineData("SyncData.Harness")]
    [InlineData("SyncData.Postgres")]
    public void EF_Core_is_not_in_the_dependency_closure_of(string project)
    {
        var deps = File.ReadAllText(Path.ChangeExtension(Lab.BuiltAssembly(project), ".deps.json"));
        Assert.DoesNotContain("Microsoft.EntityFrameworkCore", deps, StringComparison.Ordinal);
        Assert.DoesNotContain("SyncData.Model", deps, StringComparison.Ordinal);
    }

    [Fact]
    public void The_measurement_instrument_references_the_contracts_and_the_base_class_library_only()
    {
        var measurement = typeof(SyncData.Measurement.RuntimeWindow).Assembly;
        var outside = measurement.GetReferencedAssemblies()
            .Select(a => a.Name!)
            .Where(n => !n.StartsWith("System", StringComparison.Ordinal) && n is not ("netstandard" or "mscorlib" or "SyncData.Shared"))
            .ToList();
        Assert.True(outside.Count == 0, $"SyncData.Measurement references {string.Join(", ", outside)}.");
    }

    [Fact]
    public void ServiceDefaults_knows_nothing_of_the_domain_model()
    {
        var defaults = typeof(SyncData.ServiceDefaults.ServiceDefaultsExtensions).Assembly.GetReferencedAssemblies().Select(a => a.Name).ToList();
        Assert.DoesNotContain("SyncData.Model", defaults);
        Assert.DoesNotContain(defaults, n => n!.StartsWith("Microsoft.EntityFrameworkCore", StringComparison.Ordinal));
    }
}
