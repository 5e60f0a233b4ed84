using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Where a run (a combination's or a peer's) starts from, prepared untimed: the source's count and checksum the run
/// must bring the target to, the target's as the runner read them before the run (never equal to the source's: the
/// record proves the run had something to do), and, with --changed, what was changed in the source since the target
/// equalled it.
/// </summary>
public sealed record TargetStart(TableChecksum Source, TableChecksum Target, ChangeMix? Changes = null, string? Changed = null, double? Share = null);
