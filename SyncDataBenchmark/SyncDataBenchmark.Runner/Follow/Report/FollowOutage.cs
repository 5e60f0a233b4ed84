using SyncDataBenchmark.Runner.Report;
namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// --outage after a follow run's catch-up: the mechanism stopped applying for <see cref="Seconds"/> while pgbench wrote on
/// at the run's rate; the WAL the source wrote meanwhile and what the mechanism's slot held at the end (null: no slot);
/// the time from its start again until the target equalled the source by checksum (to within the catch-up's polling).
/// </summary>
public sealed record FollowOutage(double Seconds, long WalWrittenBytes, long? WalHeldBytes, double? RecoveryMs, bool Verified, string? Error);
