namespace SomeService.Sync;

/// <summary>SQL kept in .sql files beside the code that runs it, embedded by file name (SomeService.csproj).</summary>
internal static class EmbeddedSql
{
    public static string Read(string name)
    {
        using var stream = typeof(EmbeddedSql).Assembly.GetManifestResourceStream(name)
                           ?? throw new InvalidOperationException($"Embedded script {name} is missing.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd().Trim();
    }
}
