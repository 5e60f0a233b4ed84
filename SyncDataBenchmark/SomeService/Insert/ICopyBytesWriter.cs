using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>A writer fed with the source's binary COPY body, byte for byte; runs only with a fetch that delivers one.</summary>
[WriterKind(CopyBytes = true)]
public interface ICopyBytesWriter : ITableWriter
{
    /// <returns>Rows written, or null when the approach cannot count them.</returns>
    Task<long?> WriteAsync(Stream binaryCopy, WriteTarget target, CancellationToken ct);

    Task<long?> ITableWriter.WriteCopyAsync(Stream binaryCopy, MergeScope? scope, WriteTarget target, CancellationToken ct) =>
        WriteAsync(binaryCopy, target, ct);
}
