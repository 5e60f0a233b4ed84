using System.Reflection;
using System.Runtime.Loader;
using System.Security.Cryptography;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace SyncData.Model.Generated;

/// <summary>
/// Compiles generated row classes with Roslyn into an assembly loaded into the default context (so they bind to the
/// same EF Core, Npgsql and service this process runs), once per distinct source: the same description generates
/// the same source, so a table is compiled once per process however often it is triggered. Kept per process, not per
/// service (each service keeps its data sources): an assembly of the same name cannot be loaded twice
/// into the default context, and one process may host several services (the in-process tests).
/// </summary>
public static class RowClassCompiler
{
    private static readonly Dictionary<string, Assembly> Compiled = new(StringComparer.Ordinal);
    private static readonly Lock Gate = new();

    /// <summary>Everything the process may load (the runtime and the application's dependencies): what the generated code is compiled against.</summary>
    private static readonly Lazy<MetadataReference[]> References = new(() =>
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path)).ToArray());

    /// <summary>A namespace under <paramref name="prefix"/> unique to <paramref name="key"/> (the description's own text), so two tables' classes never meet.</summary>
    public static string Namespace(string prefix, string key) =>
        prefix + ".T" + Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(key)))[..16];

    /// <summary>
    /// The assembly compiled from <paramref name="source"/> and any <paramref name="more"/> files (protoc's messages):
    /// compiled now, or the one compiled before.
    /// </summary>
    public static Assembly Compile(string source, string assemblyName, params string[] more)
    {
        string[] sources = [source, .. more];
        var key = string.Join("\0", sources);
        lock (Gate)
        {
            if (Compiled.TryGetValue(key, out var done))
            {
                return done;
            }

            var parse = new CSharpParseOptions(LanguageVersion.Latest);
            var compilation = CSharpCompilation.Create(assemblyName, sources.Select(s => CSharpSyntaxTree.ParseText(s, parse)),
                References.Value, new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable,
                    optimizationLevel: OptimizationLevel.Release));
            using var image = new MemoryStream();
            var emitted = compilation.Emit(image);
            if (!emitted.Success)
            {
                var errors = emitted.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).Take(10);
                throw new InvalidOperationException($"The generated row classes do not compile:\n{string.Join("\n", errors)}\n{string.Join("\n", sources)}");
            }

            image.Position = 0;
            var assembly = AssemblyLoadContext.Default.LoadFromStream(image);
            Compiled[key] = assembly;
            return assembly;
        }
    }
}
