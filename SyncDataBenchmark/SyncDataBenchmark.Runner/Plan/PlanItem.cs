using SyncData.Harness;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner;

/// <summary>One timed (or warm-up) run of a combination or a peer moving one table, in its place in the round-robin.</summary>
public sealed record PlanItem(int Index, int Round, bool Warmup, Combination? Combination, PeerDefinition? Peer, RuntimeProfile Profile, bool MainProfile, long Rows, SyncTable Table)
{
    /// <summary>--changed: the share of the source's rows changed before this run (ChangedBaseline); null: a run into an emptied target.</summary>
    public double? Share { get; init; }

    /// <summary>The case this run belongs to: a combination or a peer, on its table, at its share.</summary>
    public CaseIdentity Identity => Combination is { } c ? CaseIdentity.Of(c, Table, Share) : CaseIdentity.Of(Peer!, Table, Share);

    /// <summary>The case as the record names it: NpgsqlCopy:NpgsqlCopy[gzip], NpgsqlCopy:NpgsqlCopy[orders], psql-binary[orders].</summary>
    public string Case => Identity.Key;

    /// <summary>The case's key, with "@profile" under a profile after the first.</summary>
    public string Key => CaseIdentity.Profiled(Case, MainProfile ? null : Profile.Name);
    public string Title => (Combination is { } c ? $"#{c.Number} " : "peer: ") + Identity.Label + (MainProfile ? "" : $" [{Profile.Name}]");
    public string RunLabel(int repeat) => Warmup ? "warm-up" : $"round {Round}";

    /// <summary>The same run untimed: a warm-up before the case's timed runs in a fresh service process.</summary>
    public PlanItem AsWarmup() => this with { Round = 0, Warmup = true };
}
