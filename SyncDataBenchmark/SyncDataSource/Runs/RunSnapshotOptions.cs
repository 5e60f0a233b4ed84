using System.ComponentModel.DataAnnotations;

namespace SyncDataSource.Runs;

public sealed class RunSnapshotOptions
{
    public const string Section = "Snapshots";

    /// <summary>A run with no request in flight for this long ends: its consumer went away (SomeService's own idle timeout is 30 s).</summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    public TimeSpan IdleTimeout { get; set; } = TimeSpan.FromSeconds(60);
}
