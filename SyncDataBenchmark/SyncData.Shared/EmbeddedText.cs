using System.Reflection;

namespace SyncData.Shared;

/// <summary>
/// A file a project embeds beside the code that runs it (its .sql and .sh, named by each csproj's LogicalName): read
/// once here for every project, which references SyncData.Shared directly or through SyncData.Postgres.
/// </summary>
public static class EmbeddedText
{
    /// <summary>The text of the resource <paramref name="name"/> in <paramref name="assembly"/>, as written; missing is an error.</summary>
    public static string Read(Assembly assembly, string name)
    {
        using var stream = assembly.GetManifestResourceStream(name)
                           ?? throw new InvalidOperationException($"Embedded script {name} is missing from {assembly.GetName().Name}.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
