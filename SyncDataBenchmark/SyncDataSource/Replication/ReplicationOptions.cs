using System.ComponentModel.DataAnnotations;

namespace SyncDataSource.Replication;

/// <summary>NpgsqlReplication's settings at the source (section Replication).</summary>
public sealed class ReplicationOptions
{
    public const string Section = "Replication";

    /// <summary>
    /// How often a stream emits a heartbeat message into the WAL while it streams: what bounds the WAL a quiet table's
    /// slot keeps (the slot advances to each heartbeat SomeService acknowledges), and the stream's own keep-alive.
    /// </summary>
    [Range(0.1, 3600)]
    public double HeartbeatSeconds { get; set; } = 5;
}
