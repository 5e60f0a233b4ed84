namespace SomeService.Insert;

/// <summary>
/// The write half of a run. Each approach is one class that declares its own name; <see cref="ApproachRegistry"/>
/// finds them by enumeration, so adding an approach adds one file. A writer knows nothing of sources:
/// it consumes rows (<see cref="IRowWriter"/>, <see cref="IMergeWriter"/>) or PostgreSQL binary COPY bytes
/// (<see cref="ICopyBytesWriter"/>, <see cref="ICopyBytesMergeWriter"/>), each interface saying so once with its
/// [WriterKind], and declares whether the batch size means anything to it (Batches = true). This is only the common
/// base: a writer implements exactly one of the four (the catalogue refuses any other).
/// </summary>
public interface ITableWriter
{
}
