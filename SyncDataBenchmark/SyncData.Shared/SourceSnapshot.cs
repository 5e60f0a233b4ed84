namespace SyncData.Shared;

/// <summary>
/// The one state of the source a run read: the id pg_export_snapshot() gave it (every request of the run imported it),
/// the oldest transaction still running then (xmin: every transaction before it is visible, none after it) and the WAL
/// position when it was taken; <see cref="Visible"/> is the snapshot itself as pg_current_snapshot() prints it
/// ("xmin:xmax:xip,…"): the watermark a merge stores with its rows, from which the next sync asks for what changed
/// (a transaction still running then is invisible in it, so its rows count as changed whenever it commits).
/// Null in records written before the watermark existed.
/// </summary>
public sealed record SourceSnapshot(string Id, string Xmin, string Lsn, string? Visible = null);
