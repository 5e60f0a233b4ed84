namespace SyncData.Shared.Fetches;

/// <summary>
/// ArrowStream: one request whose body is an Apache Arrow IPC stream (the schema, record batches of the table's columns,
/// the end-of-stream marker) over the same HTTP as the others, so compression, the idle timeout and the byte counts are
/// theirs.
/// </summary>
[Approach(ApproachKind.Fetch, "ArrowStream", Route = "users/arrow")]
public sealed class ArrowStreamFetch : IFetch;
