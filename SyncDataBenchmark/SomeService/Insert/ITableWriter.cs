using SomeService.Tables;

namespace SomeService.Insert;

/// <summary>
/// The write half of a run. Each approach is one class that declares its own name; <see cref="ApproachRegistry"/>
/// finds them by enumeration, so adding an approach adds one file. A writer knows nothing of sources:
/// it consumes rows (<see cref="IRowWriter"/>, <see cref="IMergeWriter"/>) or PostgreSQL binary COPY bytes
/// (<see cref="ICopyBytesWriter"/>, <see cref="ICopyBytesMergeWriter"/>), each interface saying so once with its
/// [WriterKind], and declares whether the batch size means anything to it (Batches = true). This is only the common
/// base: a writer implements exactly one of the four (the catalogue refuses any other). The run feeds a writer by what
/// its kind declares (ApproachInfo.CopyBytes) through the two calls below, each of the four interfaces answering the
/// one it takes, so the run never casts to them.
/// </summary>
public interface ITableWriter
{
    /// <summary>Writes the source's binary COPY body, as a writer whose kind declares CopyBytes does; <paramref name="scope"/> is a merge's.</summary>
    Task<long?> WriteCopyAsync(Stream binaryCopy, MergeScope? scope, WriteTarget target, CancellationToken ct) =>
        throw new InvalidOperationException($"{GetType().Name} consumes rows, not COPY bytes: its kind says so (ApproachInfo.CopyBytes).");

    /// <summary>Writes rows as they arrive, as a writer whose kind does not declare CopyBytes does; <paramref name="scope"/> is a merge's.</summary>
    Task<long?> WriteRowsAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope? scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class =>
        throw new InvalidOperationException($"{GetType().Name} consumes COPY bytes, not rows: its kind says so (ApproachInfo.CopyBytes).");
}
