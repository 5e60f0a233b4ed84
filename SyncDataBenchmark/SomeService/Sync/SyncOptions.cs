using System.ComponentModel.DataAnnotations;

namespace SomeService.Sync;

public sealed class SyncOptions
{
    public const string Section = "Sync";

    [Required]
    public Uri SourceBaseUrl { get; set; } = new("http://127.0.0.1:5190");

    [Range(1, 1_000_000)]
    public int DefaultPageSize { get; set; } = 1000;

    [Range(1, 1_000_000)]
    public int DefaultBatchSize { get; set; } = 1000;

    [Range(1, 1_000_000)]
    public int MaxPageSize { get; set; } = 10_000;

    [Range(1, 10_000_000)]
    public int MaxBatchSize { get; set; } = 100_000;

    /// <summary>
    /// How long the source may send nothing before a run fails. Replaces HttpClient's 100 s whole-request
    /// timeout, which would cut a slow but healthy million-row stream.
    /// </summary>
    public TimeSpan SourceIdleTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How often a run tells the source it is still at work (POST runs/{id}/alive), so the run's snapshot outlives a
    /// writer's long pause between requests; well inside the source's Snapshots:IdleTimeout (60 s). A run shorter than
    /// this sends none.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "01:00:00")]
    public TimeSpan SourceKeepAlive { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>Per-command timeout on the target (Npgsql's default 30 s would cut a long COPY or SaveChanges).</summary>
    [Range(0, 86_400)]
    public int DatabaseCommandTimeoutSeconds { get; set; } = 600;
}
