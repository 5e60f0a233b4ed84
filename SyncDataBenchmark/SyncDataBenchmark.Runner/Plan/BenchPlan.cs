using System.Globalization;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// What a session runs, decided from the options and what was measured so far: links × sizes × profiles (one phase
/// each, <see cref="Phases"/>) × rounds, each round tables × changed shares × codings × cases and peers in a random
/// order from --seed (<see cref="Round"/>), so slow drift of the machine spreads over all of them; the first profile
/// runs every case and the peers, each further one (after the services restart under it) the --profile-cases cases. What was measured decides which cases a round
/// still holds (AdaptiveStop) and which a sweep skips at a size, predicted past --max-run-seconds (<see cref="SkipsAt"/>).
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
    /// One round's timed items at a size across one link, in the plan's own order (each profile: tables × shares ×
    /// cases, then the peers under the first), less the cases the record says were skipped or left out by the budget across this link.
    /// </summary>
    public IReadOnlyList<PlanItem> ItemsAt(int sizeIndex, string link, SessionMeasurements record)
    {
        var skipped = record.Skipped.Where(s => s.Link == link)
            .Select(s => CaseIdentity.Profiled(s.Case, s.Profile == settings.MainProfile.Name ? null : s.Profile)).ToHashSet();
        return ItemsAt(sizeIndex).Where(i => !skipped.Contains(i.Key) && record.BudgetOf(i, link) is not { Runs: 0 })
            .Select((item, index) => item with { Index = index }).ToList();
    }

    /// <summary>
    /// The profiles a size runs, one phase each (one start of the services, its cases warmed once): the one the
    /// services run under now first (<paramref name="current"/>, no restart), the others in an order drawn from the seed.
    /// Only profiles with items at the size; a restart resets the JIT, so a phase per round would warm every case again.
    /// </summary>
    public IReadOnlyList<RuntimeProfile> Phases(int sizeIndex, string link, SessionMeasurements record, string? current)
    {
        var used = ItemsAt(sizeIndex, link, record).Select(i => i.Profile).Distinct().ToList();
        var first = used.Where(p => p.Name == current).ToList();
        var rest = used.Except(first).ToArray();
        new Random(RoundSeed(sizeIndex, link, 0)).Shuffle(rest);
        return [.. first, .. rest];
    }

    /// <summary>
    /// Round <paramref name="round"/> (from 1) of <paramref name="profile"/>'s phase in its random order, from the seed,
    /// the size, the link, the profile and the round alone: the items of that profile <paramref name="wanted"/> still
    /// wants (under the first profile its cases and the peers, under a further one the --profile-cases cases).
    /// </summary>
    public IReadOnlyList<PlanItem> Round(int sizeIndex, string link, SessionMeasurements record, RuntimeProfile profile, int round, Func<PlanItem, bool> wanted)
    {
        var items = ItemsAt(sizeIndex, link, record).Where(i => i.Profile == profile).Select(i => i with { Round = round }).Where(wanted).ToArray();
        var profileIndex = settings.Profiles.ToList().IndexOf(profile);
        new Random(RoundSeed(sizeIndex, link, round) + (profileIndex * 7_919)).Shuffle(items);
        return items.Select((item, index) => item with { Index = index }).ToList();
    }

    /// <summary>Whether <paramref name="c"/> can move <paramref name="table"/>: any case a built-in table, a described one only what <see cref="DescribedTableReach"/> carries.</summary>
    public static bool Carries(SyncTable table, Combination c) => WhyNot(table, c) is null;

    /// <summary>Why <paramref name="c"/> cannot move <paramref name="table"/> (<see cref="DescribedTableReach"/>, naming its approach), or null when it can.</summary>
    public static string? WhyNot(SyncTable table, Combination c) =>
        table.Description is { } described ? DescribedTableReach.WhyNot(CaseNumbers.Approaches[c.Fetch], CaseNumbers.Approaches[c.Insert], described) : null;

    /// <summary>Says, one line per reason (each names its approach), the cases of <paramref name="selected"/> that cannot move <paramref name="table"/>, as "Not run on <paramref name="where"/>".</summary>
    public static void SayNotCarried(SyncTable table, IEnumerable<Combination> selected, string where, Action<string> say)
    {
        foreach (var reason in selected.Select(c => (Case: c, Why: WhyNot(table, c))).Where(x => x.Why is not null).GroupBy(x => x.Why!))
        {
            say($"Not run on {where}: {reason.Key}: {string.Join(", ", reason.Select(x => $"{x.Case.Fetch} × {x.Case.Insert}"))}.");
        }
    }

    /// <summary>One round's seed, from the session's and the round's place: the same --seed gives every round the same order.</summary>
    private int RoundSeed(int sizeIndex, string link, int round)
    {
        var linkIndex = settings.Links.Select(l => l.Name).ToList().IndexOf(link);
        return unchecked((((settings.Seed * 31) + sizeIndex) * 31 + linkIndex) * 1_000_003 + round);
    }

    private IEnumerable<PlanItem> ItemsAt(int sizeIndex)
    {
        var rows = settings.Sizes[sizeIndex];
        foreach (var profile in settings.Profiles)
        {
            var main = profile == settings.MainProfile;
            foreach (var (table, share) in settings.Tables.SelectMany(t => settings.Shares.Select(s => (t, s))))
            {
                foreach (var c in (main ? Combinations : ProfileCombinations).Where(c => Carries(table, c)))
                {
                    yield return new PlanItem(0, 1, false, c, null, profile, main, rows, table) { Share = share };
                }

                // The peers run no .NET process: one set, beside the main profile's runs, is enough. On a described
                // table only a user's own (--source-connection), and only the peers that read it alone (OwnTableMatrix).
                foreach (var p in main ? peers.Where(p => table.Description is null || (p.ReadsSourceOnly && settings.SourceConnection is not null)) : [])
                {
                    yield return new PlanItem(0, 1, false, null, p, profile, main, rows, table) { Share = share };
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
        foreach (var item in ItemsAt(0))
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
