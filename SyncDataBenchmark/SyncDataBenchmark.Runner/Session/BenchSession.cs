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
            var items = Plan.ItemsAt(i, lab.Link.Name, record);
            // The time left at a new size: each case's run predicted from the smaller ones until it has run here.
            var predicted = items.GroupBy(j => j.Key).ToDictionary(g => g.Key, g => Growth.PredictMs(record.BestTimesBySize(g.First(), lab.Link.Name), rows));
            await display.RunAsync(items, async (item, token) =>
            {
                var outcome = await executor.RunAsync(item, token);
                await checkpoint(Plan);
                return outcome;
            }, ct, key => predicted.GetValueOrDefault(key) is { } ms ? TimeSpan.FromMilliseconds(ms) : null);
        }
    }
}
