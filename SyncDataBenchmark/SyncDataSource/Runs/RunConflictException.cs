namespace SyncDataSource.Runs;

/// <summary>
/// A request names a run that is not open at the source (never begun, or already ended), or begins one again. Answered
/// 409: reading a fresh snapshot instead would mix two states of the table.
/// </summary>
public sealed class RunConflictException(string message) : Exception(message)
{
    public static RunConflictException Ended(Guid run, string why) =>
        new($"Run {run}'s snapshot of the source has ended ({why}); its requests cannot read the state the run started from.");

    public static RunConflictException NeverBegun(Guid run) =>
        new($"Run {run} was never begun at SyncDataSource (POST /{SyncData.Shared.SourceRoutes.Run(run)} first), so there is no snapshot for its requests to read.");

    public static RunConflictException Again(Guid run) =>
        new($"Run {run} was begun before; a run begins once.");
}
