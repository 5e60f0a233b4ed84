using SyncData.Harness;

namespace SyncDataBenchmark.Runner;

/// <summary>One timed (or warm-up) run of a combination or a peer, in its place in the round-robin.</summary>
public sealed record PlanItem(int Index, int Round, bool Warmup, Combination? Combination, PeerDefinition? Peer, RuntimeProfile Profile, bool MainProfile, long Rows)
{
    /// <summary>The case's key, with "@profile" under a profile after the first.</summary>
    public string Key => (Combination?.Key ?? Peer!.Key) + (MainProfile ? "" : "@" + Profile.Name);
    public string Title => Combination is { } c
        ? $"#{c.Number} {c.Label}{(MainProfile ? "" : $" [{Profile.Name}]")}"
        : $"peer: {Peer!.Name}";
    public string RunLabel(int repeat) => Warmup ? "warm-up" : $"run {Round}/{repeat}";
}
