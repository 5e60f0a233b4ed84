using System.Globalization;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// What a session runs, decided from the options alone: links × sizes × profiles × rounds × tables × changed shares × codings × cases.
/// Each round visits, table by table, every selected case and then every peer, so slow drift of the machine spreads over all of them; the
/// first profile runs every case and the peers, each further one (after the services restart under it) the
/// --profile-cases cases. The one input that is not an option is what was measured so far: a case whose run at the
/// next size is predicted past --max-run-seconds is skipped there (<see cref="SkipsAt"/>).
/// </summary>
public sealed class BenchPlan(BenchSettings settings, IReadOnlyList<PeerDefinition> peers)
{
    public BenchPlan(BenchSettings settings) : this(settings, PeerDefinition.All.Where(p => settings.RunsPeer(p.Key)).ToList())
    {
    }

    public BenchSettings Settings => settings;

    /// <summary>The selected cases, each once per --compression (a case's codings side by side).</summary>
    public IReadOnlyList<Combination> Combinations { get; } = Compressed(settings, _ => true);

    /// <summary>The combinations each further profile runs: the selected ones that --profile-cases names.</summary>
    public IReadOnlyList<Combination> ProfileCombinations { get; } = Compressed(settings, c => settings.ProfileCases.Matches(c.Fetch, c.Insert));

    /// <summary>The peers run: all, or those --peers named, less those whose precondition failed (<see cref="Without"/>).</summary>
    public IReadOnlyList<PeerDefinition> Peers => peers;

    public BenchPlan Without(IEnumerable<PeerDefinition> skipped) => new(settings, peers.Except(skipped).ToList());

    private static Combination[] Compressed(BenchSettings settings, Func<Combination, bool> also) =>
        // A merge writer (and so a change fetch) needs a populated target: only --changed prepares one.
        CaseNumbers.Runnable.Where(c => (settings.Changed is not null || !c.Merges) && settings.Cases.Matches(c.Fetch, c.Insert) && also(c))
            .SelectMany(c => settings.Compressions.Select(compression => c with { Compression = compression })).ToArray();

    /// <summary>
    /// One size's items across one link: its warm-up rounds (BenchSettings.WarmupsAt), then the timed rounds, every
    /// case and peer in each, less the cases the record says were skipped across this link.
    /// </summary>
    public IReadOnlyList<PlanItem> ItemsAt(int sizeIndex, string link, SessionMeasurements record)
    {
        var skipped = record.Skipped.Where(s => s.Link == link)
            .Select(s => CaseIdentity.Profiled(s.Case, s.Profile == settings.MainProfile.Name ? null : s.Profile)).ToHashSet();
        return ItemsAt(sizeIndex).Where(i => !skipped.Contains(i.Key)).Select((item, index) => item with { Index = index }).ToList();
    }

    private IEnumerable<PlanItem> ItemsAt(int sizeIndex)
    {
        var rows = settings.Sizes[sizeIndex];
        foreach (var profile in settings.Profiles)
        {
            var main = profile == settings.MainProfile;
            for (var round = 1 - settings.WarmupsAt(sizeIndex); round <= settings.Repeat; round++)
            {
                foreach (var (table, share) in settings.Tables.SelectMany(t => settings.Shares.Select(s => (t, s))))
                {
                    foreach (var c in main ? Combinations : ProfileCombinations)
                    {
                        yield return new PlanItem(0, Math.Max(round, 0), round <= 0, c, null, profile, main, rows, table) { Share = share };
                    }

                    // The peers run no .NET process: one set, beside the main profile's runs, is enough.
                    foreach (var p in main ? peers : [])
                    {
                        yield return new PlanItem(0, Math.Max(round, 0), round <= 0, null, p, profile, main, rows, table) { Share = share };
                    }
                }
            }
        }
    }

    /// <summary>
    /// Cases whose run at <paramref name="rows"/> across <paramref name="link"/> is predicted past the cap, from their
    /// best times so far; once skipped, skipped at every larger size too (its prediction only grows).
    /// </summary>
    public List<SkippedCase> SkipsAt(string link, long rows, SessionMeasurements record)
    {
        if (settings.MaxRunSeconds is not { } cap)
        {
            return [];
        }

        var result = new List<SkippedCase>();
        foreach (var item in ItemsAt(0).Where(i => !i.Warmup && i.Round == 1))
        {
            var key = item.Case;
            var already = record.Skipped.LastOrDefault(s => s.Case == key && s.Profile == item.Profile.Name && s.Link == link);
            var predicted = already is not null
                ? Growth.PredictMs([(already.Rows, already.PredictedMs)], rows)
                : Growth.PredictMs(record.BestTimesBySize(item, link), rows);
            if (predicted is { } ms && (already is not null || ms > cap * 1000))
            {
                result.Add(new SkippedCase(key, item.Title, item.Profile.Name, rows, Math.Round(ms),
                    string.Create(CultureInfo.InvariantCulture, $"predicted {Estimator.Format(TimeSpan.FromMilliseconds(ms))} per run, past --max-run-seconds {cap:0}")) { Link = link });
            }
        }

        return result;
    }
}
