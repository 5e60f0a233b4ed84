using System.Globalization;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner.Budget;

/// <summary>
/// Before a size's first round, what fits in the time it has (Kalibera and Jones: spend the runs where the variance is,
/// not on what one run already settles): every case its warm-ups and --repeat timed runs; when that does not fit in
/// <see cref="MinimumShare"/> of the time, the case whose runs cost most is measured once instead (shown, "not
/// compared"), again and again, and only when every case is down to one run, the costliest is left out. The pipe, every
/// ratio's yardstick, keeps its runs. What is left after the minimum goes to close calls (AdaptiveStop).
/// </summary>
public static class BudgetPlanner
{
    /// <summary>The share of a size's time the minimum may take: the rest is for close calls and for the estimate's error.</summary>
    public const double MinimumShare = 0.8;

    /// <summary>The plan for <paramref name="items"/> (one per case) in <paramref name="availableSeconds"/>.</summary>
    public static SizePlan Plan(IReadOnlyList<PlanItem> items, BenchSettings settings, CostModel cost, double availableSeconds, string link)
    {
        var cases = items.Select(i => new PlannedCase(i, cost.Seconds(i), cost.Seconds(i.AsWarmup()), WarmupsOf(i, settings), settings.Repeat)).ToList();
        var restarts = Restarts(items, settings) * cost.RestartSeconds;
        var target = availableSeconds * MinimumShare;
        var decided = new List<BudgetedCase>();
        while (cases.Sum(c => c.Seconds) + restarts > target)
        {
            // Demote first (once, no warm-up: a run this long settles its own JIT), leave out only when nothing can be demoted.
            var demote = cases.Where(c => c.Warmups + c.Runs > 1 && !IsPipe(c.Item)).MaxBy(c => c.Seconds);
            if (demote is not null)
            {
                var i = cases.IndexOf(demote);
                cases[i] = demote with { Runs = 1, Warmups = 0 };
                decided.Add(Decision(demote, 1, $"its {demote.Warmups + demote.Runs} runs (~{Format(demote.Seconds)}) do not fit in the budget beside the rest", link));
                continue;
            }

            var leave = cases.Where(c => !IsPipe(c.Item)).MaxBy(c => c.Seconds);
            if (leave is null)
            {
                break;
            }

            cases.Remove(leave);
            decided.RemoveAll(d => d.Case == leave.Item.Key);
            decided.Add(Decision(leave, 0, $"even one run (~{Format(leave.Each)}) does not fit in the budget beside the rest", link));
        }

        return new SizePlan(decided, cases.Sum(c => c.Seconds) + restarts, availableSeconds, cases.Count(c => c.Runs == settings.Repeat), settings.Repeat, items.Count(i => !cost.Known(i)),
            settings.MaxRepeat >= RunStatistics.MinTestRuns);
    }

    /// <summary>The warm-ups a case is expected to need: --warmup, and one more for a .NET case whose first run compiles (settling), at most --max-warmup.</summary>
    private static int WarmupsOf(PlanItem item, BenchSettings settings) =>
        item.Combination is null ? settings.Warmups : Math.Min(MostWarmups(settings), settings.Warmups + 1);

    /// <summary>
    /// The most warm-ups a case runs per start of the services: --max-warmup where runs are compared; below the test's
    /// runs a side (--max-repeat under 5), --warmup and one more. The first run compiles the case's hot path; what the
    /// tiered JIT compiles after it (methods called once a request reach its 30 calls only after 30 runs) a small run's
    /// milliseconds cannot outlast, and with nothing compared a settled run changes no verdict: the run is flagged instead.
    /// </summary>
    public static int MostWarmups(BenchSettings settings) =>
        settings.MaxRepeat >= RunStatistics.MinTestRuns ? settings.MaxWarmups : Math.Min(settings.MaxWarmups, settings.Warmups + 1);

    /// <summary>The warm-ups <paramref name="item"/> is expected to run when cold: none for a case measured once.</summary>
    public static int ExpectedWarmups(PlanItem item, BenchSettings settings, SessionMeasurements record, string link) =>
        record.BudgetOf(item, link) is { Once: true } ? 0 : WarmupsOf(item, settings);

    /// <summary>Service restarts at a size: one per further profile with items (each profile runs its rounds in one phase, BenchPlan.Phases).</summary>
    private static int Restarts(IReadOnlyList<PlanItem> items, BenchSettings settings) =>
        items.Where(i => !i.MainProfile).Select(i => i.Profile.Name).Distinct().Count();

    private static bool IsPipe(PlanItem item) => item.Peer?.Key == PeerDefinition.PsqlBinaryKey;

    private static BudgetedCase Decision(PlannedCase c, int runs, string reason, string link) =>
        new(c.Item.Key, c.Item.Title, c.Item.Rows, link, runs, Math.Round(c.Each, 1), reason);

    public static string Format(double seconds) => Estimator.Format(TimeSpan.FromSeconds(seconds));

    private sealed record PlannedCase(PlanItem Item, double Each, double EachWarmup, int Warmups, int Runs)
    {
        public double Seconds => Warmups * EachWarmup + Runs * Each;
    }
}

/// <summary>A size's plan: the cases it measures once or leaves out, what its minimum should take, of what it had.</summary>
/// <param name="Full">Cases that get their --repeat runs (and more, where close and --max-repeat allows).</param>
/// <param name="Unknown">Cases no record had a time for: their cost is a guess until they have run.</param>
/// <param name="Compared">Whether runs are compared (--max-repeat 5 or more): only then are runs still compiling replaced and close calls run.</param>
public sealed record SizePlan(IReadOnlyList<BudgetedCase> Decisions, double MinimumSeconds, double AvailableSeconds, int Full, int Repeat, int Unknown, bool Compared)
{
    /// <summary>The plan in words, each decision on a line of its own.</summary>
    public IEnumerable<string> Describe(long rows)
    {
        var once = Decisions.Count(d => d.Once);
        var left = Decisions.Count - once;
        var slack = Compared ? "what is left goes to close calls and to runs still compiling, replaced."
            : $"nothing is compared ({RunStatistics.TooFewRuns}): no close call; a run still compiling is flagged, not replaced.";
        yield return string.Create(CultureInfo.InvariantCulture,
            $"Plan at {rows:N0} rows: {Full} case(s) with their warm-ups and {Repeat} timed run(s) each{(once > 0 ? $", {once} measured once" : "")}{(left > 0 ? $", {left} left out" : "")}: " +
            $"~{BudgetPlanner.Format(MinimumSeconds)}, of ~{BudgetPlanner.Format(AvailableSeconds)} this size has; {slack}" +
            $"{(Unknown > 0 ? $" {Unknown} case(s) never timed in a record: guessed until they have run." : "")}");
        foreach (var d in Decisions)
        {
            yield return d.Once
                ? $"  measured once, not compared: {d.Title} (~{BudgetPlanner.Format(d.PredictedSeconds)} a run): {d.Reason}."
                : $"  left out: {d.Title} (~{BudgetPlanner.Format(d.PredictedSeconds)} a run): {d.Reason}.";
        }
    }
}
