using System.Reflection;
using System.Runtime.InteropServices;
using SyncData.Harness;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The approach catalogue as SomeService builds it: the fetches as SyncData.Shared declares them
/// (<see cref="ApproachCatalog.DeclaredFetches"/>), the writers read from SomeService.dll in a <see cref="MetadataLoadContext"/>
/// by the same code SomeService reads itself with (<see cref="ApproachCatalog.Declared"/>): the runner
/// validates --cases before any service starts, and it must neither load the service's assembly nor EF Core
/// (LayerTests). The runner's project reference builds SomeService alongside it. A fast test holds this equal to
/// SomeService's own (ApproachRegistry.Catalog).
/// </summary>
public static class ApproachMetadata
{
    private static readonly Lazy<ApproachCatalog> Built = new(() => Read(Lab.BuiltAssembly("SomeService")));

    /// <summary>The catalogue of the SomeService built beside this runner.</summary>
    public static ApproachCatalog Catalog => Built.Value;

    public static ApproachCatalog Read(string assemblyPath)
    {
        if (!File.Exists(assemblyPath))
        {
            throw new FileNotFoundException($"SomeService is not built at {assemblyPath}: the runner reads the approach names from it (build the runner's project, which builds SomeService too).", assemblyPath);
        }

        // The service's own output and this runtime: where the attribute's and the service's types are found.
        var assemblies = Directory.GetFiles(Path.GetDirectoryName(Path.GetFullPath(assemblyPath))!, "*.dll")
            .Concat(Directory.GetFiles(RuntimeEnvironment.GetRuntimeDirectory(), "*.dll"));
        using var context = new MetadataLoadContext(new PathAssemblyResolver(assemblies));
        var writers = ApproachCatalog.Declared(context.LoadFromAssemblyPath(assemblyPath), ApproachKind.Insert).Select(w => w.Info);
        return new ApproachCatalog(writers.Concat(ApproachCatalog.DeclaredFetches));
    }
}
