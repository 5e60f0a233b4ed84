using System.Diagnostics;
using SyncData.Harness;
using SyncDataBenchmark.Runner.Budget;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Carries out a plan: across each link in turn (each with a lab of its own), every size smallest first (reseeded; the
/// services stay up: they hold no data), the cases the cap skips decided from the record, then that size's items,
/// each run by a <see cref="BenchExecutor"/> and the record checkpointed after each; within the session's
/// <see cref="RunBudget"/>: each size planned before its first round (<see cref="BudgetPlanner"/>), no round started
/// that would end past the budget.
/// </summary>
public sealed class BenchSession(BenchPlan plan, SessionMeasurements record, IBenchDisplay display, Func<BenchPlan, Task> checkpoint, RunBudget budget, CostModel cost)
{
    private BenchSettings Settings => Plan.Settings;

    /// <summary>The plan as carried out: less the peers whose precondition failed on the first lab.</summary>
    public BenchPlan Plan { get; private set; } = plan;

    /// <summary>Every link: the first on <paramref name="first"/> (the caller's to stop), each further one on a lab of its own, stopped here.</summary>
    public async Task RunAsync(BenchLab first, CancellationToken ct)
    {
        await SkipPeersThatCannotRunAsync(first, ct);
        await RunLinkAsync(first, ct);
        foreach (var link in Settings.Links.Skip(1))
        {
            await first.DisposeAsync();
            BenchLab lab;
            try
            {
                lab = await Heartbeat.RunAsync($"setting up the {link.Name} lab (hosts, clusters, seed, services)",
                    () => BenchLab.StartAsync(Settings, link, display.Say, ct), display.Say);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                record.AddProblem($"Could not set up the {link.Name} link's lab: {ex.Message}");
                display.Say(record.Problems[^1]);
                return;
            }

            await using (lab)
            {
                await RunLinkAsync(lab, ct);
            }
        }
    }

    /// <summary>
    /// Asks the source whether each peer with a precondition can run there (e.g. logical replication needs
    /// wal_level = logical, which --connection's server may not have); one that cannot is skipped with the reason.
    /// </summary>
    private async Task SkipPeersThatCannotRunAsync(BenchLab lab, CancellationToken ct)
    {
        var skipped = new List<PeerDefinition>();
        foreach (var peer in Plan.Peers.Where(p => p.Precondition is not null))
        {
            if (await Lab.ScalarAsync(lab.SourceDb, peer.Precondition!, ct) is string reason)
            {
                skipped.Add(peer);
                record.Add(new SkippedPeer(peer.Key, $"peer: {peer.Name}", reason));
                display.Say($"Skipped peer {peer.Name}: {reason}.");
            }
        }

        Plan = Plan.Without(skipped);
    }

    /// <summary>--changed: once per table and share at each size, before the runs change the source further.</summary>
    private async Task MeasureTriggerCostsAsync(BenchLab lab, long rows, CancellationToken ct)
    {
        foreach (var table in Settings.Tables)
        {
            foreach (var share in Settings.Changed ?? [])
            {
                try
                {
                    var cost = await TriggerCostProbe.MeasureAsync(lab.SourceDb, table, share, ct) with { Link = lab.Link.Name };
                    record.Add(cost);
                    display.Say($"Change tracking's cost, {table.Name} at {cost.Changed} ({cost.ChangedRows:N0} of {cost.SourceRows:N0} rows): " +
                                $"{cost.TrackedMs:N1} ms with the triggers, {cost.UntrackedMs:N1} ms without ({cost.Ratio:0.00}×, median/median).");
                }
                catch (Npgsql.NpgsqlException ex)
                {
                    record.AddProblem($"Could not measure change tracking's cost on {table.Name} at {ChangedShare.Format(share)} ({rows:N0} rows): {ex.Message}");
                    display.Say(record.Problems[^1]);
                }
            }
        }
    }

    private async Task RunLinkAsync(BenchLab lab, CancellationToken ct)
    {
        if (Settings.Links.Count > 1)
        {
            display.Say($"Link {lab.Link.Name}.");
        }

        using var executor = new BenchExecutor(Settings, lab, record, display.Say);
        _link = lab.Link.Name;
        // Each link's lab starts services of its own: nothing in them has run yet.
        _warmProfile = null;
        for (var i = 0; i < Settings.Sizes.Count; i++)
        {
            var rows = Settings.Sizes[i];
            if (Settings.Sizes.Count > 1)
            {
                display.Say($"Size {i + 1}/{Settings.Sizes.Count}: {rows:N0} rows.");
            }

            if (i > 0)
            {
                await Heartbeat.RunAsync($"seeding {rows:N0} rows", () => lab.PrepareDataAsync(rows, display.Say, ct), display.Say);
            }

            record.AddSeed(rows, lab.SeedReused ? null : lab.SeedMs);
            foreach (var skip in Plan.SkipsAt(lab.Link.Name, rows, record))
            {
                display.Say($"Skipped at {skip.Rows:N0} rows: {skip.Title} ({skip.Reason}).");
                record.Add(skip);
            }

            await MeasureTriggerCostsAsync(lab, rows, ct);
            await RunRoundsAsync(lab, executor, i, ct);
        }
    }

    /// <summary>
    /// One size's phases, one per profile (BenchPlan.Phases: the services restart once for each), and each phase's rounds,
    /// each in its random order (BenchPlan.Round), until no case of the phase wants another run (AdaptiveStop) or the next
    /// round would end past the budget, the later phases' minimum kept back; the size planned first (<see cref="PlanSize"/>).
    /// Before a case's first timed run in a service process, its warm-ups (<see cref="WarmUpAsync"/>).
    /// </summary>
    private async Task RunRoundsAsync(BenchLab lab, BenchExecutor executor, int sizeIndex, CancellationToken ct)
    {
        var stop = new AdaptiveStop(Settings, record, lab.Link.Name);
        PlanSize(lab.Link.Name, sizeIndex);
        var all = Plan.ItemsAt(sizeIndex, lab.Link.Name, record);
        var phases = Plan.Phases(sizeIndex, lab.Link.Name, record, _preparedProfile ?? Settings.MainProfile.Name);
        for (var p = 0; p < phases.Count; p++)
        {
            // The phases still to run, this one first: what the progress line and the budget's checks count.
            _phases = [.. phases.Skip(p).Select(x => x.Name)];
            if (!await RunPhaseAsync(executor, sizeIndex, phases[p], p == 0, all, stop, ct))
            {
                return;
            }
        }
    }

    /// <summary>One profile's rounds at a size; false when the budget stopped them (the size's later phases are not started either).</summary>
    private async Task<bool> RunPhaseAsync(BenchExecutor executor, int sizeIndex, RuntimeProfile profile, bool firstPhase, IReadOnlyList<PlanItem> all, AdaptiveStop stop, CancellationToken ct)
    {
        var rows = Settings.Sizes[sizeIndex];
        var under = Settings.Profiles.Count > 1 ? $" under {profile.Name}" : "";
        for (var round = 1; ; round++)
        {
            var items = Plan.Round(sizeIndex, _link, record, profile, round, item => stop.Wants(item, all));
            if (items.Count == 0)
            {
                return true;
            }

            // Every round adds a run to each case it holds, and AdaptiveStop ends a case at --max-repeat (and as many
            // replacements of runs still compiling): past three times that, something does not count its runs.
            if (round > 3 * Settings.MaxRepeat + 1)
            {
                record.AddProblem($"At {rows:N0} rows{under} the rounds did not end after {round - 1}: {string.Join(", ", items.Select(j => j.Key).Distinct())} still wanted runs.");
                display.Say(record.Problems[^1]);
                return true;
            }

            var roundSeconds = RoundSeconds(items);
            var later = LaterPhasesSeconds(all, stop);
            if ((round > 1 || !firstPhase) && !budget.Fits(roundSeconds + later))
            {
                record.AddBudgetNote($"At {rows:N0} rows round {round}{under} was not started: it would take ~{BudgetPlanner.Format(roundSeconds)}{(later > 0 ? $" beside the later profiles' ~{BudgetPlanner.Format(later)}" : "")} and " +
                                     $"{(budget.Left > TimeSpan.Zero ? Estimator.Format(budget.Left) : "nothing")} of the {Estimator.Format(budget.Total)} budget was left; {items.Select(j => j.Key).Distinct().Count()} case(s) still wanted runs.");
                display.Say(record.BudgetNotes[^1]);
                return false;
            }

            display.Say($"Round {round}{under} ({rows:N0} rows, seed {Settings.Seed}): {items.Count} run(s) of {items.Select(j => j.Key).Distinct().Count()} case(s) still short of " +
                        $"{Settings.Repeat} runs or close calls, ~{BudgetPlanner.Format(roundSeconds)}; {Estimator.Format(budget.Spent)} of the {Estimator.Format(budget.Total)} budget spent.");
            await display.RunAsync(items, (item, token) => RunItemAsync(executor, item, token), ct,
                left => budget.Status(round, RoundSeconds(left), MinimumSeconds(all, stop, left)));
        }
    }

    /// <summary>One item: its services ready, its warm-ups when its case is cold, the run, its time for the cost model, the record checkpointed.</summary>
    private async Task<ItemOutcome> RunItemAsync(BenchExecutor executor, PlanItem item, CancellationToken ct)
    {
        // Before deciding whether the case is warm: a service that died since its last run is started again here.
        await PrepareAsync(executor, item, ct);
        var warmups = await WarmUpAsync(executor, item, ct);
        var clock = Stopwatch.StartNew();
        var outcome = await executor.RunAsync(item, ct);
        cost.Record(item, clock.Elapsed);
        await checkpoint(Plan);
        return warmups == 0 ? outcome : outcome with { Text = $"{outcome.Text} (after {warmups} warm-up(s))" };
    }

    /// <summary>
    /// Before a size's first round: what its share of the budget holds (BudgetPlanner), each case measured once or left
    /// out said, recorded, and kept to by AdaptiveStop and BenchPlan.
    /// </summary>
    private void PlanSize(string link, int sizeIndex)
    {
        var linksLeft = Settings.Links.Count - Settings.Links.Select(l => l.Name).ToList().IndexOf(link);
        var items = Plan.ItemsAt(sizeIndex, link, record);
        var plan = BudgetPlanner.Plan(items, Settings, cost, budget.ShareSeconds(Settings.Sizes, sizeIndex, linksLeft), link);
        foreach (var decided in plan.Decisions)
        {
            record.Add(decided);
        }

        foreach (var line in plan.Describe(Settings.Sizes[sizeIndex]))
        {
            record.AddBudgetNote(line.Trim());
            display.Say(line);
        }
    }

    /// <summary>
    /// What the size's minimum still needs, in the order it will run (RemainingTime.Minimum): the round's runs left, then
    /// each case's timed runs short of its minimum (AdaptiveStop.MinimumLeft), this phase's then the later phases', with
    /// the warm-ups of cases not yet warm and a restart per phase. The budget's slack for close calls is not planned.
    /// </summary>
    private double MinimumSeconds(IReadOnlyList<PlanItem> all, AdaptiveStop stop, IReadOnlyList<PlanItem> roundLeft) =>
        RemainingTime.Seconds(RemainingTime.Minimum(roundLeft, all.Where(i => _phases.Contains(i.Profile.Name)), stop.MinimumLeft, _phases), Costs, _warmProfile, WarmNow);

    /// <summary>The later phases' minimum, kept back from this phase's close calls: each starts with a restart and cold cases.</summary>
    private double LaterPhasesSeconds(IReadOnlyList<PlanItem> all, AdaptiveStop stop)
    {
        var later = _phases.Skip(1).ToList();
        return later.Count == 0 ? 0
            : RemainingTime.Seconds(RemainingTime.Minimum([], all.Where(i => later.Contains(i.Profile.Name)), stop.MinimumLeft, later), Costs, _warmProfile, WarmNow);
    }

    /// <summary>A round's expected seconds: each item's run, the warm-ups of cases not yet warm, a restart per change of profile.</summary>
    private double RoundSeconds(IReadOnlyList<PlanItem> items) => RemainingTime.Seconds(items, Costs, _warmProfile, WarmNow);

    private RunCosts Costs => new(cost.Seconds, i => BudgetPlanner.ExpectedWarmups(i, Settings, record, _link) * cost.Seconds(i.AsWarmup()), cost.RestartSeconds);

    private IReadOnlySet<string> WarmNow => _warm;

    /// <summary>The item's services ready; a switch of profile (a restart of both) timed for the budget's estimates.</summary>
    private async Task PrepareAsync(BenchExecutor executor, PlanItem item, CancellationToken ct)
    {
        var switching = _preparedProfile is not null && _preparedProfile != item.Profile.Name;
        var clock = Stopwatch.StartNew();
        await executor.PrepareAsync(item, ct);
        if (switching)
        {
            cost.RecordRestart(clock.Elapsed);
        }

        _preparedProfile = item.Profile.Name;
    }

    private string? _preparedProfile;
    private List<string> _phases = [];
    private string _link = NetworkLink.LoopbackName;

    private readonly HashSet<string> _warm = [];
    private string? _warmProfile;
    private int _warmRevivals;

    /// <summary>
    /// The item's warm-ups, when its case has not run in this service process (a profile switch restarts the
    /// services, and so does a revival of one that exited): at least --warmup, then until a run compiled less than --jit-threshold-ms in SomeService, at most
    /// --max-warmup (--warmup and one more where nothing is compared: BudgetPlanner.MostWarmups) and, past --warmup, no
    /// longer than a third of --case-budget. Returns how many ran.
    /// </summary>
    private async Task<int> WarmUpAsync(BenchExecutor executor, PlanItem item, CancellationToken ct)
    {
        if (_warmProfile != item.Profile.Name || _warmRevivals != executor.Revivals)
        {
            _warm.Clear();
            _warmProfile = item.Profile.Name;
            _warmRevivals = executor.Revivals;
        }

        // A case the budget measures once runs cold: its run is long enough that compiling is a sliver of it.
        if (!_warm.Add(item.Key) || record.BudgetOf(item, _link) is { Once: true })
        {
            return 0;
        }

        var count = 0;
        var spent = System.Diagnostics.Stopwatch.StartNew();
        while (count < BudgetPlanner.MostWarmups(Settings))
        {
            var clock = Stopwatch.StartNew();
            var outcome = await executor.RunAsync(item.AsWarmup(), ct);
            cost.Record(item.AsWarmup(), clock.Elapsed);
            count++;
            display.Say($"    warm-up {count} of {item.Title}: {outcome.Text}");
            if (count < Settings.Warmups)
            {
                continue;
            }

            // A peer runs no .NET process; a failed run says nothing of the JIT; a long case cannot afford more.
            var last = item.Combination is null ? null : record.Runs[^1];
            if (last?.Result is not { } result || result.SomeService?.JitTimeMs is not { } jit || jit < Settings.JitThresholdMs
                || spent.Elapsed.TotalSeconds >= Settings.CaseBudgetSeconds / 3)
            {
                break;
            }
        }

        return count;
    }
}
