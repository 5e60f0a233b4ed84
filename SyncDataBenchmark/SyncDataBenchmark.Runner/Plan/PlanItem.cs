using SyncData.Harness;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner;

/// <summary>One timed (or warm-up) run of a combination or a peer moving one table, in its place in the round-robin.</summary>
public sealed record PlanItem(int Index, int Round, bool Warmup, Combination? Combination, PeerDefinition? Peer, RuntimeProfile Profile, bool MainProfile, long Rows, SyncTable Table)
{
    /// <summary>"[orders]", "[1%]": a table other than users and a changed share each make their own case, as a coding does (RunDimension's label suffix).</summary>
    private string TableSuffix => (Table == SyncTable.Users ? "" : $"[{Table.Name}]") + (Share is { } s ? $"[{ChangedShare.Format(s)}]" : "");

    /// <summary>--changed: the share of the source's rows changed before this run (ChangedBaseline); null: a run into an emptied target.</summary>
    public double? Share { get; init; }

    /// <summary>The case as the record names it: NpgsqlCopy:NpgsqlCopy[gzip], NpgsqlCopy:NpgsqlCopy[orders], psql-binary[orders].</summary>
    public string Case => (Combination?.Key ?? Peer!.Key) + TableSuffix;

    /// <summary>The case's key, with "@profile" under a profile after the first.</summary>
    public string Key => Case + (MainProfile ? "" : "@" + Profile.Name);
    public string Title => (Combination is { } c ? $"#{c.Number} {c.Label}" : $"peer: {Peer!.Name}")
        + (TableSuffix.Length > 0 ? " " + TableSuffix.Replace("][", "] [", StringComparison.Ordinal) : "") + (MainProfile ? "" : $" [{Profile.Name}]");
    public string RunLabel(int repeat) => Warmup ? "warm-up" : $"run {Round}/{repeat}";
}
