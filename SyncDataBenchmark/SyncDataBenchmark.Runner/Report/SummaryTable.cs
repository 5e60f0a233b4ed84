using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The summary table's rows, derived from the record's runs at one size across one link: one row per combination
/// and profile, and per peer, in the original's order (TestCase number, the main profile first, then the peers).
/// </summary>
public static class SummaryTable
{
    public static List<SummaryRow> Build(BenchResults record, long rows, string link)
    {
        var runs = record.AllRuns.Where(r => r.SourceRows == rows && r.Link == link).ToList();
        // Each value of a splitting dimension (the table) is a summary of its own, in the order measured (each round: as asked).
        return runs.GroupBy(r => r.Identity.Split).SelectMany(split => Ranked(Build(record.Parameters, split.OfType<CombinationRun>().ToList(), split.OfType<PeerRun>().ToList()), record.Parameters))
            .Select(r => record.Budget?.Once(CaseIdentity.Profiled(r.Case, r.MainProfile ? null : r.Profile), rows, link) == true ? r with { Stopped = Once } : r).ToList();
    }

    private static IEnumerable<SummaryRow> Build(BenchParameters parameters, List<CombinationRun> runs, List<PeerRun> peerRuns)
    {
        var profiles = parameters.Profiles.Select(p => p.Name).ToList();
        var peerOrder = PeerDefinition.All.Select(p => p.Key).ToList();
        var combinations = runs.GroupBy(r => (r.Case, r.Profile))
            .OrderBy(g => g.First().Number)
            .ThenBy(g => profiles.IndexOf(g.Key.Profile));
        // Within a number and profile, each dimension's values in the order the session asked for them.
        foreach (var dimension in RunDimension.All)
        {
            var asked = (dimension.Asked(parameters) ?? []).ToList();
            combinations = combinations.ThenBy(g => asked.IndexOf(dimension.Of(g.First().Identity)));
        }

        var peers = peerRuns.GroupBy(r => r.Peer)
            .OrderBy(g => peerOrder.IndexOf(g.Key))
            .Select(g => OfPeer(PeerDefinition.Find(g.Key)!, g.ToList(), parameters.MainProfile));
        return combinations.Select(g => OfCombination(g.ToList(), parameters.MainProfile) with
        {
            UnsettledRuns = parameters.JitThresholdMs is null ? null : g.Count(r => r is { Warmup: false, Ok: true, Unsettled: true }),
            UnsettledDurations = [.. g.Where(r => r is { Warmup: false, Ok: true, Unsettled: true } && r.Result?.DurationMs is not null).Select(r => r.Result!.DurationMs!.Value)],
        }).Concat(peers);
    }

    private static SummaryRow OfCombination(List<CombinationRun> all, string mainProfile)
    {
        var first = all[0];
        // Runs still compiling are left out of every statistic (the session replaced them); JIT-unsettled counts them.
        var ok = all.Where(r => r.Counts).ToList();
        var best = ok.MinBy(r => r.Result!.DurationMs);
        // A failed case still gets a picture of what it did, if it got far enough to sample anything.
        var pictured = best ?? all.LastOrDefault(r => r.Result?.SomeService?.Samples is { Count: > 0 });
        var main = first.Profile == mainProfile;
        return Timed(all, ok.Select(r => r.Result!.DurationMs!.Value), new SummaryRow
        {
            Kind = SummaryRow.Kinds.Combination,
            Case = first.Case,
            Profile = first.Profile,
            MainProfile = main,
            Number = first.Number,
            Title = first.Label,
            Fetch = first.Fetch,
            Insert = first.Insert,
            Dimensions = RunDimension.All.ToDictionary(d => d.Header, d => d.Of(first.Identity)),
            Split = first.Identity.Split,
            WireBytesPerRow = PerRow(ok, r => r.WireBytes),
            BodyBytesPerRow = PerRow(ok, r => r.BodyBytes),
            // SomeService's durationMs: first target statement (truncate) to commit.
            Scope = PeerScopes.TargetStatements,
            PictureRunId = pictured?.Result?.Id,
            Picture = first.Identity.Picture(main ? null : first.Profile),
            SomeService = ServiceMedians.Of(ok.Select(r => r.Result!.SomeService)),
            SyncDataSource = ServiceMedians.Of(ok.Select(r => r.Result!.SyncDataSource)),
            Traffic = best?.Traffic,
        });
    }

    private static double? PerRow(List<CombinationRun> ok, Func<RunResult, long?> bytes) =>
        Statistics.Median(ok.Where(r => r.Result!.Rows > 0 && bytes(r.Result) is not null).Select(r => (double)bytes(r.Result!)!.Value / r.Result!.Rows).ToList());

    private static SummaryRow OfPeer(PeerDefinition p, List<PeerRun> all, string mainProfile)
    {
        var first = all[0];
        var ok = all.Where(r => r is { Warmup: false, Ok: true }).ToList();
        var walls = ok.Where(r => r.WallMs is not null).Select(r => r.WallMs!.Value).ToList();
        return Timed(all, ok.Select(r => r.DurationMs!.Value), new SummaryRow
        {
            Kind = SummaryRow.Kinds.Peer,
            Case = first.Identity.Key,
            Peer = p.Key,
            Profile = mainProfile,
            MainProfile = true,
            Title = first.Identity.Label,
            Fetch = p.FetchLabel,
            Insert = p.InsertLabel,
            Dimensions = RunDimension.SplitValues(first),
            Split = first.Identity.Split,
            Scope = first.Scope,
            BestWallMs = walls.Count > 0 ? walls.Min() : null,
            MedianWallMs = Statistics.Median(walls),
            Traffic = ok.MinBy(r => r.DurationMs)?.Traffic,
        });
    }

    /// <summary>What every row has from its runs, whatever it measured: the timed runs, a failed warm-up, the successful timed runs' times.</summary>
    private static SummaryRow Timed(IReadOnlyList<MeasuredRun> all, IEnumerable<double> durations, SummaryRow row) => row with
    {
        // A run left out as still compiling is neither a success nor a failure: not counted among the timed runs.
        TimedRuns = all.Count(r => !r.Warmup && r is not CombinationRun { Ok: true, Unsettled: true }),
        WarmupFailed = all.Any(r => r is { Warmup: true, Ok: false }),
        Durations = durations.ToList(),
    };

    /// <summary>
    /// With ranks by median, the median/median ratios to the fastest combination and to the psql binary pipe (with the
    /// latter's interval), how each case stopped, and which cases the test cannot tell from each combination, within one split.
    /// </summary>
    private static List<SummaryRow> Ranked(IEnumerable<SummaryRow> split, BenchParameters parameters)
    {
        var rows = split.ToList();
        // Ranks and the fastest time are the main profile's; every row is still compared with the same session's pipe.
        var ranked = rows.Where(r => r is { Kind: SummaryRow.Kinds.Combination, MainProfile: true, MedianMs: not null }).OrderBy(r => r.MedianMs).ToList();
        var fastest = ranked.FirstOrDefault()?.MedianMs ?? 0;
        // The yardstick at each scope: its target-statements time for rows measured so, its whole command for the rest.
        var pipe = rows.FirstOrDefault(r => r.Peer == PeerDefinition.PsqlBinaryKey);
        double? PipeAt(string? scope) => scope == PeerScopes.WholeCommand ? pipe?.MedianWallMs : pipe?.MedianMs;
        return rows.Select(r => r.MedianMs is not { } median ? r : r with
        {
            Rank = ranked.Contains(r) ? ranked.IndexOf(r) + 1 : null,
            // The combinations are all timed at the target's statements; a whole-command time is not comparable with them.
            RatioToFastest = fastest > 0 && r.Scope != PeerScopes.WholeCommand ? median / fastest : null,
            RatioToPsqlBinary = PipeAt(r.Scope) is > 0 and var pipeMedian ? median / pipeMedian : null,
            RatioInterval = pipe is not null && r != pipe && r.Scope != PeerScopes.WholeCommand ? RunStatistics.Ratio(r.Durations, pipe.Durations) : null,
            TiedWith = r.Kind == SummaryRow.Kinds.Combination
                ? [.. rows.Where(o => o != r && o is { Kind: SummaryRow.Kinds.Combination } && o.MainProfile == r.MainProfile && o.Profile == r.Profile
                    && RunStatistics.Compare(o.Durations, r.Durations) == Perfolizer.Mathematics.Common.ComparisonResult.Indistinguishable).Select(o => o.Case)]
                : [],
        }).Select(r => r with { Stopped = StoppedOf(r, parameters) }).ToList();
    }

    /// <summary>
    /// Why a row has its n, judged as AdaptiveStop judged it: its failures, its width reached, --max-repeat, told apart
    /// from every other case (no close call), or its budget spent (few runs).
    /// </summary>
    private static string? StoppedOf(SummaryRow row, BenchParameters parameters)
    {
        if (parameters is not { TargetWidth: { } target, MaxRepeat: { } max } || row.Succeeded == 0)
        {
            return null;
        }

        var width = row.RatioInterval?.Width ?? (RunStatistics.MedianInterval(row.Durations) is { } i && row.MedianMs is > 0 and var m ? (i.Upper - i.Lower) / m : null);
        // Two failed runs stop a case before any of the others can: "budget" would be a wrong reason (issue 62).
        return row.Failures >= AdaptiveStop.MaxFailures ? "failures" : width <= target ? "width" : row.TimedRuns >= max ? "max"
            : row is { Kind: SummaryRow.Kinds.Combination, TiedWith.Count: 0 } && row.Succeeded >= RunStatistics.MinTestRuns && parameters.Repeat < max ? "apart" : "budget";
    }

    /// <summary>The budget's plan measured the case once: shown, not compared (Budget.BudgetPlanner).</summary>
    public const string Once = "once";
}
