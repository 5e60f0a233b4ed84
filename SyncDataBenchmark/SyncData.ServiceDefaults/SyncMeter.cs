namespace SyncData.ServiceDefaults;

public static class SyncMeter
{
    /// <summary>The lab's own meter: runs, their durations, rows written, and which case is running.</summary>
    public const string Name = "SyncData";
}
