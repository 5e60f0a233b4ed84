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
                                $"{cost.TrackedMs:N1} ms with the triggers, {cost.UntrackedMs:N1} ms without ({cost.Ratio:0.00}×).");
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
    /// One size's rounds, each in its random order (BenchPlan.Round), until no case wants another run (AdaptiveStop) or
    /// the next round would end past the budget; the size planned first (<see cref="PlanSize"/>). Before a case's first
    /// timed run in a service process, its warm-ups (<see cref="WarmUpAsync"/>).
    /// </summary>
    private async Task RunRoundsAsync(BenchLab lab, BenchExecutor executor, int sizeIndex, CancellationToken ct)
    {
        var rows = Settings.Sizes[sizeIndex];
        var stop = new AdaptiveStop(Settings, record, lab.Link.Name);
        PlanSize(lab.Link.Name, sizeIndex);
        var all = Plan.ItemsAt(sizeIndex, lab.Link.Name, record);
        for (var round = 1; ; round++)
        {
            var items = Plan.Round(sizeIndex, lab.Link.Name, record, round, item => stop.Wants(item, all));
            if (items.Count == 0)
            {
                return;
            }

            // Every round adds a run to each case it holds, and AdaptiveStop ends a case at --max-repeat (and as many
            // replacements of runs still compiling): past three times that, something does not count its runs.
            if (round > 3 * Settings.MaxRepeat + 1)
            {
                record.AddProblem($"At {rows:N0} rows the rounds did not end after {round - 1}: {string.Join(", ", items.Select(j => j.Key).Distinct())} still wanted runs.");
                display.Say(record.Problems[^1]);
                return;
            }

            var roundSeconds = RoundSeconds(items);
            if (round > 1 && !budget.Fits(roundSeconds))
            {
                record.AddBudgetNote($"At {rows:N0} rows round {round} was not started: it would take ~{BudgetPlanner.Format(roundSeconds)} and " +
                                     $"{(budget.Left > TimeSpan.Zero ? Estimator.Format(budget.Left) : "nothing")} of the {Estimator.Format(budget.Total)} budget was left; {items.Select(j => j.Key).Distinct().Count()} case(s) still wanted runs.");
                display.Say(record.BudgetNotes[^1]);
                return;
            }

            display.Say($"Round {round} ({rows:N0} rows, seed {Settings.Seed}): {items.Count} run(s) of {items.Select(j => j.Key).Distinct().Count()} case(s) still short of " +
                        $"{Settings.Repeat} runs or close calls, ~{BudgetPlanner.Format(roundSeconds)}; {Estimator.Format(budget.Spent)} of the {Estimator.Format(budget.Total)} budget spent.");
            await display.RunAsync(items, async (item, token) =>
            {
                // Before deciding whether the case is warm: a service that died since its last run is started again here.
                await PrepareAsync(executor, item, token);
                var warmups = await WarmUpAsync(executor, item, token);
                var clock = Stopwatch.StartNew();
                var outcome = await executor.RunAsync(item, token);
                cost.Record(item, clock.Elapsed);
                await checkpoint(Plan);
                return warmups == 0 ? outcome : outcome with { Text = $"{outcome.Text} (after {warmups} warm-up(s))" };
            }, ct, left => budget.Status(round, RoundSeconds(left), MinimumSeconds(all, stop, left)));
        }
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
    /// What the size's minimum still needs: the round's runs left, and beyond them each case's timed runs short of its
    /// minimum (AdaptiveStop.MinimumLeft) with the warm-ups of cases not yet warm.
    /// </summary>
    private double MinimumSeconds(IReadOnlyList<PlanItem> all, AdaptiveStop stop, IReadOnlyList<PlanItem> roundLeft)
    {
        var inRound = roundLeft.GroupBy(i => i.Key).ToDictionary(g => g.Key, g => g.Count());
        var beyond = all.Where(i => stop.MinimumLeft(i) > inRound.GetValueOrDefault(i.Key))
            .Select(i => i with { Index = 0 }).SelectMany(i => Enumerable.Repeat(i, stop.MinimumLeft(i) - inRound.GetValueOrDefault(i.Key))).ToList();
        return RoundSeconds(roundLeft) + RoundSeconds(beyond);
    }

    /// <summary>A round's expected seconds: each item's run, the warm-ups of cases not yet warm, a restart per profile block.</summary>
    private double RoundSeconds(IReadOnlyList<PlanItem> items)
    {
        var cold = items.Where(i => !_warm.Contains(i.Key) || _warmProfile != i.Profile.Name).Sum(i => BudgetPlanner.ExpectedWarmups(i, Settings, record, _link) * cost.Seconds(i.AsWarmup()));
        var switches = items.Zip(items.Skip(1)).Count(p => p.First.Profile.Name != p.Second.Profile.Name) + (items.Count > 0 && items[0].Profile.Name != _warmProfile && _warmProfile is not null ? 1 : 0);
        return items.Sum(cost.Seconds) + cold + switches * cost.RestartSeconds;
    }

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
    private string _link = NetworkLink.LoopbackName;

    private readonly HashSet<string> _warm = [];
    private string? _warmProfile;
    private int _warmRevivals;

    /// <summary>
    /// The item's warm-ups, when its case has not run in this service process (a profile switch restarts the
    /// services, and so does a revival of one that exited): at least --warmup, then until a run compiled less than --jit-threshold-ms in SomeService, at most
    /// --max-warmup and, past --warmup, no longer than a third of --case-budget. Returns how many ran.
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
        while (count < Settings.MaxWarmups)
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
