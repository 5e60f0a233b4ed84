namespace SyncData.Shared.Fetches;

/// <summary>
/// ArrowStream: one request whose body is an Apache Arrow IPC stream (the schema, record batches of the table's columns,
/// the end-of-stream marker) over the same HTTP as the others, so compression, the idle timeout and the byte counts are
/// theirs. CopyBytes: its consumer also hands the COPY writers that take bytes the batches encoded as PostgreSQL binary
/// COPY straight from the columns, no row objects between (the lab's own tables). It carries a described table in a
/// schema both services derive from their catalogs, into the typed writers through the generated row class.
/// </summary>
[Approach(ApproachKind.Fetch, "ArrowStream", CopyBytes = true, Route = "users/arrow", Traits = ApproachTraits.GeneratedRows)]
public sealed class ArrowStreamFetch : IFetch;
