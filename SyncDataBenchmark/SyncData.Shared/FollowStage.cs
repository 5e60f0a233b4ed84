namespace SyncData.Shared;

/// <summary>
/// One stage of NpgsqlReplication's lag, declared once here (docs/replication.md, "Where the lag goes"): its name (the
/// metric's stage tag, and with "Ms" the record's JSON key), its title (a report's column) and its figure in a
/// <see cref="FollowStageSample"/>. <see cref="Lag"/>: the four back to back from the source's commit to the target's,
/// whose sum is a transaction's lag; <see cref="Ack"/> follows a batch, outside the lag (<see cref="PerBatch"/>).
/// </summary>
public sealed record FollowStage(string Name, string Title, Func<FollowStageSample, double> Of, bool PerBatch = false)
{
    public static FollowStage Decode { get; } = new("decode", "Decode", s => s.DecodeMs);

    public static FollowStage Relay { get; } = new("relay", "Relay", s => s.RelayMs);

    public static FollowStage Queue { get; } = new("queue", "Queue", s => s.QueueMs);

    public static FollowStage Apply { get; } = new("apply", "Apply", s => s.ApplyMs);

    /// <summary>The acknowledgement after a batch: once per batch, not part of any transaction's lag.</summary>
    public static FollowStage Ack { get; } = new("ack", "Ack", s => s.AckMs, PerBatch: true);

    /// <summary>The stages a transaction's lag is made of, in order.</summary>
    public static IReadOnlyList<FollowStage> Lag { get; } = [Decode, Relay, Queue, Apply];

    /// <summary>Every stage: the lag's, then the acknowledgement.</summary>
    public static IReadOnlyList<FollowStage> All { get; } = [.. Lag, Ack];

    /// <summary>A transaction's lag as its stages sum it: from the source's commit to the target's commit returning.</summary>
    public static double LagMs(FollowStageSample sample) => Lag.Sum(stage => stage.Of(sample));
}
