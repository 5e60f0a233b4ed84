using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>SQL kept in .sql files beside the code that runs it, embedded by file name (SomeService.csproj), trimmed.</summary>
internal static class EmbeddedSql
{
    public static string Read(string name) => EmbeddedText.Read(typeof(EmbeddedSql).Assembly, name).Trim();
}
