using System.Text.Json.Serialization;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>One row of the summary table: a combination (under one profile) or a peer, over its runs at one size and link.</summary>
public sealed record SummaryRow
{
    public static class Kinds
    {
        public const string Combination = "combination";
        public const string Peer = "peer";
    }

    public required string Kind { get; init; }
    public required string Case { get; init; }
    /// <summary>The runtime profile of the rows's runs; the peers carry the main profile's.</summary>
    public required string Profile { get; init; }
    /// <summary>True for the main profile's rows (the headline table); false for the profile comparison.</summary>
    public required bool MainProfile { get; init; }
    public int? Number { get; init; }
    public required string Title { get; init; }
    public required string Fetch { get; init; }
    public required string Insert { get; init; }
    /// <summary>Peers: the peer's key (Case adds the split's values: psql-binary[orders]).</summary>
    public string? Peer { get; init; }
    /// <summary>Combinations: the row's value of each RunDimension, by header (Compression: gzip); peers: those that split (Table: orders).</summary>
    public required IReadOnlyDictionary<string, string> Dimensions { get; init; }
    /// <summary>Which summary the row belongs to: "" the plain one's, "-orders" (CaseIdentity.Split); ranks and ratios are within it.</summary>
    public string Split { get; init; } = "";
    /// <summary>1 = fastest median among the combinations (peers are not ranked).</summary>
    public int? Rank { get; init; }
    public int TimedRuns { get; init; }
    public bool WarmupFailed { get; init; }
    /// <summary>The successful timed runs' times, in run order: what Best, Median and StdDev are of.</summary>
    [JsonIgnore]
    public IReadOnlyList<double> Durations { get; init; } = [];
    public int Succeeded => Durations.Count;
    public int Failures => TimedRuns - Succeeded;
    public double? BestMs => Durations.Count > 0 ? Durations.Min() : null;
    public double? MedianMs => Statistics.Median(Durations);
    public double? StdDevMs => Statistics.StdDev(Durations);
    /// <summary>The median's 97.5% interval (RunStatistics.MedianInterval), for the pictures' whiskers; null with fewer than five runs.</summary>
    public double? MedianLowerMs => RunStatistics.MedianInterval(Durations)?.Lower;
    public double? MedianUpperMs => RunStatistics.MedianInterval(Durations)?.Upper;
    /// <summary>Median time over the fastest combination's median (median/median).</summary>
    public double? RatioToFastest { get; init; }
    /// <summary>Median time over the psql binary pipe's median at the same <see cref="Scope"/> (median/median).</summary>
    public double? RatioToPsqlBinary { get; init; }
    /// <summary>The same ratio's interval (RunStatistics.Ratio); null with fewer than five runs a side or at the whole-command scope.</summary>
    public MedianRatio? RatioInterval { get; init; }
    /// <summary>Timed runs in which SomeService compiled past the record's JIT threshold (CombinationRun.Unsettled); null for peers and records without a threshold.</summary>
    public int? UnsettledRuns { get; init; }
    /// <summary>Those runs' times: left out of every statistic, shown only where no run counts (SummaryColumns' "all n still compiling").</summary>
    public IReadOnlyList<double> UnsettledDurations { get; init; } = [];
    /// <summary>Why the case stopped at its n: "width" (its interval within the target), "budget" (few runs: its time ran out), "max" (--max-repeat); null in older records.</summary>
    public string? Stopped { get; init; }
    /// <summary>The cases ranked with this one's median that no test tells apart from it (their Case keys), within its split and profile.</summary>
    public IReadOnlyList<string> TiedWith { get; init; } = [];
    /// <summary>What BestMs measures: "target-statements" (combinations and most peers) or "whole-command".</summary>
    public required string Scope { get; init; }
    /// <summary>Peers: best whole-command wall time of the successful timed runs.</summary>
    public double? BestWallMs { get; init; }
    /// <summary>Peers: median whole-command wall time of the successful timed runs.</summary>
    public double? MedianWallMs { get; init; }
    /// <summary>The run whose samples the picture shows: the best successful one, else the last one with samples.</summary>
    public Guid? PictureRunId { get; init; }
    public string? Picture { get; init; }
    public ServiceMedians? SomeService { get; init; }
    public ServiceMedians? SyncDataSource { get; init; }
    /// <summary>What crossed the link during the best successful timed run (shaped links only).</summary>
    public LinkTraffic? Traffic { get; init; }
    /// <summary>Median over the successful timed runs of the fetch bodies' bytes on the wire per row moved.</summary>
    public double? WireBytesPerRow { get; init; }
    /// <summary>The same decoded: what the consumer parsed or relayed per row.</summary>
    public double? BodyBytesPerRow { get; init; }
    /// <summary>In the profile table: the main profile's row of the same case, which this one is compared with.</summary>
    [JsonIgnore]
    public SummaryRow? Baseline { get; init; }

    /// <summary>"#7 NpgsqlCopy × EFBulk [gzip]" or "peer: psql binary pipe".</summary>
    public string Label => Kind == Kinds.Peer ? $"peer: {Title}" : $"#{Number} {Title}";

    /// <summary>The label, with the profile when it is not the main one: "#7 NpgsqlCopy × EFBulk [tuned]".</summary>
    [JsonIgnore]
    public string ProfiledLabel => MainProfile ? Label : $"{Label} [{Profile}]";
}
