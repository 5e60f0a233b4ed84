using System.Text;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.md's --changed section: what each share changed, each case's median time against the share (merges,
/// reloads, peers), the crossover per library, the fastest merge against the psql temp-table + MERGE peer, and what
/// change tracking costs the source's writers.
/// </summary>
public static class ChangedReport
{
    public static void Append(StringBuilder md, ReportTables tables, bool charts)
    {
        if (tables.Changed is not { } changed)
        {
            return;
        }

        md.AppendLine().AppendLine("## Changed rows: merge the changes or reload everything").AppendLine();
        md.AppendLine("Before every run (warm-ups too) the target was made equal to the source at one instant, that instant stored as its watermark, "
                      + "and the source then changed by the share (change_<table>(share, seed): 70% updates, 20% inserts, 10% deletes). "
                      + "A merge brings the target up to date from the changes (a change fetch) or from every row (a full fetch); a reload empties it and "
                      + "loads every row. Both are verified the same way: count and checksum against the source after the change.").AppendLine();
        AppendChanges(md, tables.Record);
        foreach (var split in changed.Series.Select(s => s.Split).Distinct())
        {
            AppendTimes(md, changed, split);
            md.AppendLine().AppendLine($"Crossover per library{(split.Length > 0 ? $" ({split[1..]})" : "")} (its fastest reload against its fastest merge: the test at each share, the medians between; below five runs a side, too few runs to compare):").AppendLine();
            foreach (var c in changed.Crossovers.Where(c => c.Split == split))
            {
                md.AppendLine($"- **{c.Library}**: {c.Text}.");
            }

            AppendAgainstPsqlMerge(md, changed, split);
            if (charts)
            {
                md.AppendLine().AppendLine($"![Time against the changed share, per case](changed{split.Replace("%", "pct", StringComparison.Ordinal)}.png)");
            }
        }

        AppendTriggerCosts(md, tables.Record.TriggerCosts ?? []);
    }

    /// <summary>Per table and share: the rows changed before the runs (the median of the timed runs' counts; they vary as the source drifts).</summary>
    private static void AppendChanges(StringBuilder md, BenchResults record)
    {
        var rows = record.AllRuns.Where(r => r is { Warmup: false, Changes: not null })
            .GroupBy(r => (r.Table, r.Changed!)).OrderBy(g => g.Key.Table).ThenBy(g => g.First().ChangedShare)
            .Select(g => (g.Key.Table, Changed: g.Key.Item2, Counts: g.Select(r => r.Changes!).ToList())).ToList();
        string Median(List<ChangeMix> counts, Func<ChangeMix, long> of) => Rows((long)Statistics.Median(counts.Select(c => (double)of(c)).ToList())!.Value);
        MarkdownTable.Append(md,
        [
            new("Table", r => r.Table), new("Changed", r => r.Changed),
            new("Rows changed", r => Median(r.Counts, c => c.Total), Numeric: true), new("Updated", r => Median(r.Counts, c => c.Updated), Numeric: true),
            new("Inserted", r => Median(r.Counts, c => c.Inserted), Numeric: true), new("Deleted", r => Median(r.Counts, c => c.Deleted), Numeric: true),
            new("Runs", r => Count(r.Counts.Count), Numeric: true),
        ], rows);
    }

    private static void AppendTimes(StringBuilder md, ChangedSweep changed, string split)
    {
        md.AppendLine().AppendLine($"Median time per case and share{(split.Length > 0 ? $" ({split[1..]})" : "")}:").AppendLine();
        var columns = new List<ReportColumn<ChangedSeries>> { new("Case", s => s.Label), new("Kind", s => s.Kind), new("Library", s => s.Library ?? "—") };
        columns.AddRange(changed.Shares.Select(share => new ReportColumn<ChangedSeries>(share,
            s => s.Points.FirstOrDefault(p => p.Changed == share)?.MedianMs is { } ms ? Ms(ms) : "—", Numeric: true)));
        string[] kinds = [ChangedSeries.Kinds.Merge, ChangedSeries.Kinds.Reload, ChangedSeries.Kinds.Peer];
        MarkdownTable.Append(md, columns, changed.Series.Where(s => s.Split == split)
            .OrderBy(s => Array.IndexOf(kinds, s.Kind)).ThenBy(s => s.Library, StringComparer.Ordinal).ThenBy(s => s.Number ?? int.MaxValue).ThenBy(s => s.Label, StringComparer.Ordinal));
    }

    /// <summary>The issue's goal: at each share, the lab's fastest merge within 1.2× of the psql temp-table + MERGE peer (medians).</summary>
    private static void AppendAgainstPsqlMerge(StringBuilder md, ChangedSweep changed, string split)
    {
        var series = changed.Series.Where(s => s.Split == split).ToList();
        var peer = series.FirstOrDefault(s => s.Kind == ChangedSeries.Kinds.Peer && s.Label.StartsWith($"peer: {PeerDefinition.Find(PeerDefinition.PsqlMergeKey)!.Name}", StringComparison.Ordinal));
        if (peer is null)
        {
            return;
        }

        md.AppendLine().AppendLine("The fastest merge against the psql temp table + MERGE peer (medians):").AppendLine();
        foreach (var share in changed.Shares)
        {
            var fastest = series.Where(s => s.Kind == ChangedSeries.Kinds.Merge)
                .Select(s => (s.Label, Ms: s.Points.FirstOrDefault(p => p.Changed == share)?.MedianMs)).Where(x => x.Ms is not null).MinBy(x => x.Ms);
            var psql = peer.Points.FirstOrDefault(p => p.Changed == share)?.MedianMs;
            md.AppendLine(fastest.Ms is { } ms && psql is > 0
                ? $"- {share}: {fastest.Label} {Ms(ms)} against {Ms(psql.Value)}: {Times(ms / psql.Value)} (median/median)."
                : $"- {share}: not both measured.");
        }
    }

    private static void AppendTriggerCosts(StringBuilder md, IReadOnlyList<TriggerCost> costs)
    {
        if (costs.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("What change tracking costs the source's writers: change_<table>(share) timed inside a transaction that is rolled back, "
                                   + "with the change-log triggers and with `alter table … disable trigger user` (median of "
                                   + $"{costs[0].Samples} each, alternated; the source's rows as the size's seed left them):").AppendLine();
        MarkdownTable.Append(md,
        [
            new("Table", c => c.Table), new("Changed", c => c.Changed), new("Source rows", c => Rows(c.SourceRows), Numeric: true),
            new("Rows changed", c => Rows(c.ChangedRows), Numeric: true), new("With tracking", c => Ms(c.TrackedMs), Numeric: true),
            new("Without", c => Ms(c.UntrackedMs), Numeric: true), new("Ratio (median/median)", c => c.Ratio is { } r ? Times(r) : "—", Numeric: true),
            new("Extra per 1,000 rows changed", c => c.ChangedRows > 0 ? Ms((c.TrackedMs - c.UntrackedMs) * 1000 / c.ChangedRows) : "—", Numeric: true),
        ], costs);
    }
}
