using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>A merge (<see cref="IMergeWriter"/>) fed with the source's binary COPY body of the rows, byte for byte.</summary>
[WriterKind(CopyBytes = true, Merges = true)]
public interface ICopyBytesMergeWriter : ITableWriter
{
    /// <returns>Rows inserted or updated, or null when the approach cannot count them.</returns>
    Task<long?> MergeAsync(Stream binaryCopy, MergeScope scope, WriteTarget target, CancellationToken ct);

    Task<long?> ITableWriter.WriteCopyAsync(Stream binaryCopy, MergeScope? scope, WriteTarget target, CancellationToken ct) =>
        MergeAsync(binaryCopy, scope ?? throw new ArgumentNullException(nameof(scope), "A merge is fed with its scope."), target, ct);
}
