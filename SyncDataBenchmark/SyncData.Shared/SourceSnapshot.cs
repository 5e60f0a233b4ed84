namespace SyncData.Shared;

/// <summary>
/// The one state of the source a run read: the id pg_export_snapshot() gave it (every request of the run imported it),
/// the oldest transaction still running then (xmin: every transaction before it is visible, none after it) and the WAL
/// position when it was taken.
/// </summary>
public sealed record SourceSnapshot(string Id, string Xmin, string Lsn);
