using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>Turns the runs into one row per combination and peer.</summary>
public static class Summaries
{
    public static List<CaseSummary> Build(
        IReadOnlyList<Combination> combinations,
        IReadOnlyList<PeerDefinition> peers,
        IReadOnlyList<CombinationRun> runs,
        IReadOnlyList<PeerRun> peerRuns,
        string mainProfile = SyncData.Harness.RuntimeProfiles.DefaultName,
        IReadOnlyList<(string Profile, IReadOnlyList<Combination> Combinations)>? otherProfiles = null)
    {
        var measured = combinations.Select(c => (Combination: c, Profile: mainProfile, Main: true))
            .Concat((otherProfiles ?? []).SelectMany(p => p.Combinations.Select(c => (Combination: c, p.Profile, Main: false))));
        var rows = measured.Select(m => OfCombination(m.Combination, m.Profile, m.Main, runs))
            .Concat(peers.Select(p => OfPeer(p, mainProfile, peerRuns)))
            .ToList();
        return Ranked(rows);
    }

    private static CaseSummary OfCombination(Combination c, string profile, bool main, IReadOnlyList<CombinationRun> runs)
    {
        var all = runs.Where(r => r.Case == c.Key && r.Profile == profile).ToList();
        var timed = all.Where(r => !r.Warmup).ToList();
        var ok = timed.Where(r => r.Ok).ToList();
        var durations = ok.Select(r => r.Result!.DurationMs!.Value).ToList();
        var best = ok.MinBy(r => r.Result!.DurationMs);
        // A failed case still gets a picture of what it did, if it got far enough to sample anything.
        var pictured = best ?? all.LastOrDefault(r => r.Result?.SomeService?.Samples is { Count: > 0 });
        return Timed(durations, timed.Count, all.Any(r => r.Warmup && !r.Ok), new CaseSummary
        {
            Kind = CaseSummary.Kinds.Combination,
            Case = c.Key,
            Profile = profile,
            MainProfile = main,
            Number = c.Number,
            Title = c.Label,
            Compression = c.Compression,
            WireBytesPerRow = Median(ok.Where(r => r.Result is { WireBytes: not null, Rows: > 0 }).Select(r => (double)r.Result!.WireBytes!.Value / r.Result.Rows).ToList()),
            BodyBytesPerRow = Median(ok.Where(r => r.Result is { BodyBytes: not null, Rows: > 0 }).Select(r => (double)r.Result!.BodyBytes!.Value / r.Result.Rows).ToList()),
            Fetch = c.Fetch.ToString(),
            Insert = c.Insert.ToString(),
            // SomeService's durationMs: first target statement (truncate) to commit.
            Scope = PeerScopes.TargetStatements,
            PictureRunId = pictured?.Result?.Id,
            Picture = main ? c.Picture : c.Picture.Replace(".png", $"-{profile}.png", StringComparison.Ordinal),
            SomeService = Medians(ok.Select(r => r.Result!.SomeService)),
            SyncDataSource = Medians(ok.Select(r => r.Result!.SyncDataSource)),
            Traffic = best?.Traffic,
        });
    }

    private static CaseSummary OfPeer(PeerDefinition p, string mainProfile, IReadOnlyList<PeerRun> peerRuns)
    {
        var all = peerRuns.Where(r => r.Peer == p.Key).ToList();
        var timed = all.Where(r => !r.Warmup).ToList();
        var durations = timed.Where(r => r.Ok).Select(r => r.DurationMs!.Value).ToList();
        var walls = timed.Where(r => r.Ok && r.WallMs is not null).Select(r => r.WallMs!.Value).ToList();
        return Timed(durations, timed.Count, all.Any(r => r.Warmup && !r.Ok), new CaseSummary
        {
            Kind = CaseSummary.Kinds.Peer,
            Case = p.Key,
            Profile = mainProfile,
            Title = p.Name,
            Fetch = p.FetchLabel,
            Insert = p.InsertLabel,
            Scope = p.Scope,
            BestWallMs = walls.Count > 0 ? walls.Min() : null,
            Traffic = timed.Where(r => r.Ok).MinBy(r => r.DurationMs)?.Traffic,
        });
    }

    /// <summary>The figures every row has from its successful timed runs' durations, whatever it measured.</summary>
    private static CaseSummary Timed(List<double> durations, int timedRuns, bool warmupFailed, CaseSummary row) => row with
    {
        TimedRuns = timedRuns,
        Succeeded = durations.Count,
        Failures = timedRuns - durations.Count,
        WarmupFailed = warmupFailed,
        BestMs = durations.Count > 0 ? durations.Min() : null,
        MedianMs = Median(durations),
        StdDevMs = StdDev(durations),
    };

    /// <summary>In table order, with ranks and the ratios to the fastest combination and to the psql binary pipe.</summary>
    private static List<CaseSummary> Ranked(List<CaseSummary> rows)
    {
        // Combinations by TestCase number (the original's table order), then the peers; within a
        // number the main profile's row first (a stable sort keeps the order they were added in).
        rows = rows.Where(r => r.Number is not null).OrderBy(r => r.Number).Concat(rows.Where(r => r.Number is null)).ToList();
        // Ranks and the fastest time are the main profile's; every row is still compared with the same session's pipe.
        var fastest = rows.Where(r => r is { Kind: CaseSummary.Kinds.Combination, MainProfile: true } && r.BestMs is not null).Select(r => r.BestMs!.Value).DefaultIfEmpty().Min();
        // The yardstick at each scope: its target-statements time for rows measured so, its whole command for the rest.
        var psqlBinaryRow = rows.FirstOrDefault(r => r.Case == PeerDefinition.PsqlBinaryKey);
        double? PsqlBinaryAt(string? scope) => scope == PeerScopes.WholeCommand ? psqlBinaryRow?.BestWallMs : psqlBinaryRow?.BestMs;
        var ranks = rows.Where(r => r is { Kind: CaseSummary.Kinds.Combination, MainProfile: true } && r.BestMs is not null)
            .OrderBy(r => r.BestMs)
            .Select((r, i) => (r.Case, Rank: i + 1))
            .ToDictionary(x => x.Case, x => x.Rank);
        return rows.Select(r => r.BestMs is not { } best ? r : r with
        {
            Rank = r is { Kind: CaseSummary.Kinds.Combination, MainProfile: true } ? ranks[r.Case] : null,
            // The combinations are all timed at the target's statements; a whole-command time is not comparable with them.
            RatioToFastest = fastest > 0 && r.Scope != PeerScopes.WholeCommand ? best / fastest : null,
            RatioToPsqlBinary = PsqlBinaryAt(r.Scope) is > 0 and var psqlBinary ? best / psqlBinary : null,
        }).ToList();
    }

    public static double? Median(IReadOnlyCollection<double> values)
    {
        if (values.Count == 0)
        {
            return null;
        }

        var sorted = values.Order().ToArray();
        var mid = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    public static double? StdDev(IReadOnlyCollection<double> values)
    {
        if (values.Count < 2)
        {
            return null;
        }

        var mean = values.Average();
        return Math.Sqrt(values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1));
    }

    private static FigureMedians? Medians(IEnumerable<ServiceFigures?> figures)
    {
        var list = figures.OfType<ServiceFigures>().ToList();
        if (list.Count == 0)
        {
            return null;
        }

        double M(Func<ServiceFigures, double> pick) => Median(list.Select(pick).ToList())!.Value;
        // Only exact allocation figures count: a run whose figure is unavailable is left out, never read as zero.
        var exact = list.Where(f => f.AllocatedBytes is not null).Select(f => (double)f.AllocatedBytes!.Value).ToList();
        var reasons = list.Select(f => f.AllocatedBytesUnavailable).OfType<string>().Distinct().ToList();
        var ticked = list.Where(f => f.AllocationTickBytes is not null).Select(f => (double)f.AllocationTickBytes!.Value).ToList();
        var tickReasons = list.Select(f => f.AllocationTickUnavailable).OfType<string>().Distinct().ToList();
        return new FigureMedians(Median(exact), M(f => f.PeakWorkingSetBytes), M(f => f.GcGen0), M(f => f.GcGen1), M(f => f.GcGen2), M(f => f.GcPauseMs),
            AllocatedRuns: exact.Count,
            Runs: list.Count,
            AllocatedBytesUnavailable: reasons.Count == 0 ? null : string.Join(" / ", reasons),
            Runtime: list[^1].Runtime,
            CpuTimeMs: M(f => f.CpuTimeMs),
            JitTimeMs: Median(list.Where(f => f.JitTimeMs is not null).Select(f => f.JitTimeMs!.Value).ToList()),
            AllocationTickBytes: Median(ticked),
            AllocationTickRuns: ticked.Count,
            AllocationTickUnavailable: tickReasons.Count == 0 ? null : string.Join(" / ", tickReasons));
    }
}
