namespace SyncData.Shared;

public static class RunStatus
{
    public const string Running = "running";
    public const string Succeeded = "succeeded";
    public const string Failed = "failed";
    public const string Cancelled = "cancelled";
    /// <summary>SomeService stopped (crash, kill) while the run was in progress.</summary>
    public const string Interrupted = "interrupted";
}
