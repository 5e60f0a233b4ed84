using SyncData.Harness;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Carries out a plan: across each link in turn (each with a lab of its own), every size smallest first (reseeded; the
/// services stay up: they hold no data), the cases the cap skips decided from the record, then that size's items,
/// each run by a <see cref="BenchExecutor"/> and the record checkpointed after each.
/// </summary>
public sealed class BenchSession(BenchPlan plan, SessionMeasurements record, IBenchDisplay display, Func<BenchPlan, Task> checkpoint)
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
    /// One size's rounds, each in its random order (BenchPlan.Round), until no case wants another run (AdaptiveStop);
    /// before a case's first timed run in a service process, its warm-ups (<see cref="WarmUpAsync"/>).
    /// </summary>
    private async Task RunRoundsAsync(BenchLab lab, BenchExecutor executor, int sizeIndex, CancellationToken ct)
    {
        var rows = Settings.Sizes[sizeIndex];
        var stop = new AdaptiveStop(Settings, record, lab.Link.Name);
        var all = Plan.ItemsAt(sizeIndex, lab.Link.Name, record);
        // The time left at a new size: each case's run predicted from the smaller ones until it has run here.
        var predicted = all.GroupBy(j => j.Key).ToDictionary(g => g.Key, g => Growth.PredictMs(record.BestTimesBySize(g.First(), lab.Link.Name), rows));
        for (var round = 1; ; round++)
        {
            var items = Plan.Round(sizeIndex, lab.Link.Name, record, round, item => stop.Wants(item, all));
            if (items.Count == 0)
            {
                return;
            }

            // Every round adds a run to each case it holds, and AdaptiveStop ends a case at --max-repeat: past twice that
            // (the profiles' blocks, then the default's), something does not count its runs, and the session says so.
            if (round > 2 * Settings.MaxRepeat + 1)
            {
                record.AddProblem($"At {rows:N0} rows the rounds did not end after {round - 1}: {string.Join(", ", items.Select(j => j.Key).Distinct())} still wanted runs.");
                display.Say(record.Problems[^1]);
                return;
            }

            display.Say($"Round {round} ({rows:N0} rows, seed {Settings.Seed}): {items.Count} run(s), {items.Select(j => j.Key).Distinct().Count()} case(s) whose interval is not yet within {Settings.TargetWidth:P0} of the ratio.");
            await display.RunAsync(items, async (item, token) =>
            {
                // Before deciding whether the case is warm: a service that died since its last run is started again here.
                await executor.PrepareAsync(item, token);
                var warmups = await WarmUpAsync(executor, item, token);
                var outcome = await executor.RunAsync(item, token);
                await checkpoint(Plan);
                return warmups == 0 ? outcome : outcome with { Text = $"{outcome.Text} (after {warmups} warm-up(s))" };
            }, ct, key => predicted.GetValueOrDefault(key) is { } ms ? TimeSpan.FromMilliseconds(ms) : null);
        }
    }

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

        if (!_warm.Add(item.Key))
        {
            return 0;
        }

        var count = 0;
        var spent = System.Diagnostics.Stopwatch.StartNew();
        while (count < Settings.MaxWarmups)
        {
            var outcome = await executor.RunAsync(item.AsWarmup(), ct);
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
