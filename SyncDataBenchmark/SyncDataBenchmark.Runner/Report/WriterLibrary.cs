using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The library a writer is written with, read from its [Approach] declaration (its Library, as the runner reads the
/// catalogue: <see cref="ApproachMetadata"/>), never from its name: the crossover of --changed is stated per library, its
/// merges against its own reloads, and the verdict's situations allow writers by it.
/// </summary>
public static class WriterLibrary
{
    /// <summary>The library of <paramref name="insert"/>; a name the catalogue does not hold is its own.</summary>
    public static string Of(string insert)
    {
        var approach = new InsertApproach(insert);
        return ApproachMetadata.Catalog.Inserts.Contains(approach) && ApproachMetadata.Catalog[approach].Library is { } library ? Family(library) : insert;
    }

    /// <summary>Npgsql's binary importer and its raw binary copy are one library, Npgsql's COPY, as the verdict and the crossover count it.</summary>
    private static string Family(string library) => library.StartsWith("Npgsql", StringComparison.Ordinal) ? "Npgsql COPY" : library;
}
