using System.Text;
using static SyncDataBenchmark.Runner.Report.ReportFormat;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>results.md: the original write-up's table, one row per combination and peer, with notes; then the other tables.</summary>
public static class MarkdownReport
{
    /// <param name="pictureProblem">Why the pictures could not be drawn, listed with the failures; null when they were (or were not asked for).</param>
    public static string Render(ReportTables tables, bool charts, string? pictureProblem = null)
    {
        var report = tables.Record;
        var md = new StringBuilder();
        md.AppendLine("# SyncDataBenchmark results").AppendLine();
        if (!report.Complete)
        {
            md.AppendLine("> **Incomplete:** the runner was stopped before every run finished.").AppendLine();
        }

        if (report.Follow is not null)
        {
            return RenderFollow(md, report);
        }

        var anyFailure = report.AllRuns.Any(r => !r.Ok) || report.Problems.Count > 0 || pictureProblem is not null;
        md.AppendLine(report.Passed && pictureProblem is null
            ? "Every run succeeded and was verified (target row count and checksum equal the source's)."
            : anyFailure ? "**Not every run succeeded and verified**: see Failures below."
            : "Every run that finished succeeded and was verified.").AppendLine();
        MarkdownParameters.Append(md, tables);
        var headline = SummaryColumns.Headline(report.Parameters, charts);
        MarkdownTable.Append(md, headline, tables.Summary.Where(r => r.MainProfile));
        Modality.Append(md, tables.Summary.Where(r => r.MainProfile));
        Verdict.Append(md, tables);
        AppendWireAndCpu(md, tables);
        AppendProfileComparison(md, tables, charts);
        MarkdownTable.AppendLegends(md, headline);
        AppendAllocationCrossCheck(md, report);
        AppendFailures(md, report, pictureProblem);
        if (charts)
        {
            // One picture per split (summary.png, summary-orders.png); with --changed only the first share's
            // (summary-0.1pct.png), as changed.png follows.
            var splits = tables.Summary.Select(r => r.Split).Distinct().DefaultIfEmpty("");
            foreach (var split in report.Parameters.Changed is null ? splits : splits.Take(1))
            {
                md.AppendLine().AppendLine($"![Time and memory across combinations](summary{split.Replace("%", "pct", StringComparison.Ordinal)}.png)");
                // Drawn since the record carries the seed (issue 52); the pictures committed before it have no grid.
                if (report.Parameters.Seed is not null && tables.Summary.Any(r => r.Split == split && r is { Kind: SummaryRow.Kinds.Combination, MainProfile: true, RatioToPsqlBinary: not null }))
                {
                    md.AppendLine().AppendLine($"![Fetch × insert: median/median ratio to the psql binary pipe](grid{split.Replace("%", "pct", StringComparison.Ordinal)}.png)");
                }
            }
        }

        ChangedReport.Append(md, tables, charts);
        FollowTable.Append(md, report.Follow);

        GrowthTable.Append(md, tables, charts);
        FloorRatios.Append(md, tables);
        RowClassRatios.Append(md, tables);
        AppendLinks(md, tables, charts);
        return md.ToString();
    }

    /// <summary>A --follow record: where it ran and the "Keeping a copy fresh" table; it has no copy-once runs.</summary>
    private static string RenderFollow(StringBuilder md, BenchResults report)
    {
        md.AppendLine(report.Passed ? "Every follow run verified (target count and checksum equal the source's after the load) and left no slot, publication or subscription behind."
            : "**Not every follow run verified and left nothing behind**: see the Verified column.").AppendLine();
        md.AppendLine($"- Rows: {Rows(report.Parameters.Rows)} seeded in each table before the first run (the load then changes them)");
        MarkdownParameters.AppendMachine(md, report);
        if (report.Parameters.Profiles.FirstOrDefault(p => p.Main) is { Name: not SyncData.Harness.RuntimeProfiles.DefaultName } profile)
        {
            // Said only when not the default: every earlier follow record ran under it and renders as it did.
            md.AppendLine($"- Runtime profile of both services: **{profile.Name}** ({profile.Description}), `--profile`");
        }

        FollowTable.Append(md, report.Follow);
        AppendList(md, "Failures:", report.Problems);
        return md.ToString();
    }

    private static void AppendFailures(StringBuilder md, BenchResults report, string? pictureProblem)
    {
        var failures = report.Runs.Where(r => !r.Ok).Select(r => $"{r.Case} {(r.Warmup ? "warm-up" : $"run {r.Round}")}: {r.Error}")
            .Concat(report.Peers.Where(r => !r.Ok).Select(r => $"{r.Identity.Key} {(r.Warmup ? "warm-up" : $"run {r.Round}")}: {r.Error}"))
            .Concat(report.Problems)
            .Concat(pictureProblem is null ? [] : [$"The pictures: {pictureProblem}"])
            .ToList();
        AppendList(md, "Failures:", failures);
        AppendList(md, "Skipped peers (the server cannot run them):", report.SkippedPeers.Select(s => $"{MarkdownTable.Escape(s.Title)}: {s.Reason}").ToList());
        if (report.Budget is { } budget)
        {
            AppendList(md, $"The budget ({Estimator.Format(TimeSpan.FromSeconds(budget.Seconds))}, --budget): its plan and what it stopped:",
                [.. budget.Notes.Select(MarkdownTable.Escape)]);
        }
    }

    public static void AppendList(StringBuilder md, string title, IReadOnlyList<string> items)
    {
        if (items.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine(title).AppendLine();
        foreach (var item in items)
        {
            md.AppendLine($"- {item}");
        }
    }

    /// <summary>
    /// The cross-check of the two allocation figures over every run that has both (heap count unchanged): they must
    /// agree within ServiceFigures.AllocationTickPrecisionBytes; a disagreement is listed, not hidden.
    /// </summary>
    private static void AppendAllocationCrossCheck(StringBuilder md, BenchResults report)
    {
        var pairs = report.Runs.Where(r => r is { Ok: true, Warmup: false })
            .SelectMany(r => new (string Service, CombinationRun Run, SyncData.Shared.ServiceFigures? Figures)[] { ("SomeService", r, r.Result!.SomeService), ("SyncDataSource", r, r.Result!.SyncDataSource) })
            .Where(x => x.Figures?.AllocationTicksAgree is not null)
            .ToList();
        if (pairs.Count == 0)
        {
            return;
        }

        // How much of its margin each pair used: small figures are held to the fixed part, large ones to the 1%.
        var worst = pairs.Max(x => Math.Abs(x.Figures!.AllocationTickBytes!.Value - x.Figures.AllocatedBytes!.Value) / (double)x.Figures.AllocationTickPrecision());
        var off = pairs.Where(x => x.Figures!.AllocationTicksAgree == false).ToList();
        var precision = SummaryColumns.TickPrecisionText;
        md.AppendLine($"- Allocation cross-check: {pairs.Count} service figures had both GC.GetTotalAllocatedBytes and the tick sum; "
                      + (off.Count == 0
                          ? $"all agreed within {precision} (the largest difference used {worst * 100:0}% of that margin)."
                          : $"**{off.Count} did not** agree within {precision}: "
                            + string.Join("; ", off.Select(x => $"{x.Run.Case} run {x.Run.Round} {x.Service}: {x.Figures!.AllocatedBytes:N0} vs {x.Figures.AllocationTickBytes:N0} bytes"))));
    }

    /// <summary>The cases measured under every profile after the main one, each beside its main-profile row.</summary>
    private static void AppendProfileComparison(StringBuilder md, ReportTables tables, bool charts)
    {
        var others = tables.Summary.Where(r => r is { Kind: SummaryRow.Kinds.Combination, MainProfile: false }).ToList();
        if (others.Count == 0)
        {
            return;
        }

        var parameters = tables.Parameters;
        md.AppendLine().AppendLine($"## Runtime profiles: the same cases under each profile, against {parameters.MainProfile}").AppendLine();
        foreach (var profile in parameters.Profiles)
        {
            md.AppendLine($"- **{profile.Name}**: {profile.Description}; environment: "
                          + (profile.Environment.Count == 0 ? "none (the services' own runtimeconfig)" : string.Join(", ", profile.Environment.Select(kv => $"`{kv.Key}={kv.Value}`")))
                          + MarkdownParameters.Reported(tables, profile.Name));
        }

        md.AppendLine();
        var rows = others.GroupBy(r => r.Case).SelectMany(g =>
            tables.Summary.FirstOrDefault(r => r is { Kind: SummaryRow.Kinds.Combination, MainProfile: true } && r.Case == g.Key) is { } baseline
                ? g.Select(r => r with { Baseline = baseline }).Prepend(baseline)
                : g);
        MarkdownTable.Append(md, SummaryColumns.Profiles(parameters.Repeat, charts), rows);
        md.AppendLine();
        md.AppendLine($"Differences in brackets are against {parameters.MainProfile} for the same case in the same session: percentages for time, memory and "
                      + "pause, collection counts per generation as signed differences. The same notes apply as above (per-run medians; "
                      + "\"(tick sum)\" where DATAS changed the heap count during the runs).");
    }

    /// <summary>Bytes per row on the wire and decoded beside both services' CPU time: what a compression saves and costs.</summary>
    private static void AppendWireAndCpu(StringBuilder md, ReportTables tables)
    {
        var rows = tables.Summary.Where(r => r is { Kind: SummaryRow.Kinds.Combination, MainProfile: true }).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Bytes on the wire and CPU time").AppendLine();
        MarkdownTable.Append(md, SummaryColumns.WireAndCpu(tables.Parameters), rows);
        md.AppendLine();
        md.AppendLine("Bytes are the fetch responses' bodies (headers excluded) as SomeService received them, counted under its decoder, "
                      + "and decoded; per row moved, medians over the successful timed runs. CPU is each process's processor time (user + "
                      + "kernel, all threads) over the run, compressing and decoding included (cpuTimeMs, docs/endpoints.md); JIT is the part of "
                      + "it the JIT spent compiling (jitTimeMs: tiering still at work after a start; --warmup keeps it out of the timed runs).");
    }

    /// <summary>"Across a link": one table per link (--link), what crossed it and its own limit.</summary>
    private static void AppendLinks(StringBuilder md, ReportTables tables, bool charts)
    {
        if (tables.Links.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Across a link").AppendLine();
        md.AppendLine($"Each link at {Rows(tables.Parameters.Rows)} rows. A shaped link is two network namespaces (source host, target host) " +
                      "joined by one veth pair shaped with tc tbf at its rate, no delay added; bytes are the veth's counters around each run (best run shown), " +
                      "and the link's floor is the busier direction's bytes ÷ its rate. Best and Median are at each case's scope (target statements, " +
                      "as in the headline table) while the bytes are counted around the whole request or command, so a time a little under the floor " +
                      "means part of the transfer happened before the target's clock started (into socket and pipe buffers). The headline table above is the first link's.");
        foreach (var link in tables.Links)
        {
            var rate = link.RateBitsPerSecond is { } bits ? $" ({(bits >= 1_000_000_000 ? Number(bits / 1e9, "0.#") + " Gbit/s" : Number(bits / 1e6, "0.#") + " Mbit/s")})" : " (one host)";
            md.AppendLine().AppendLine($"### {link.Link}{rate}").AppendLine();
            MarkdownTable.Append(md, SummaryColumns.Link(link.RateBitsPerSecond), link.Cases.Where(r => r.MainProfile));
        }

        // bench/plot.py draws one links picture per split (links-orders.png, links-1pct.png), when a link is shaped.
        if (charts && tables.Links.Any(l => l.RateBitsPerSecond is not null))
        {
            foreach (var split in tables.Links.SelectMany(l => l.Cases).Select(r => r.Split).Distinct())
            {
                md.AppendLine().AppendLine($"![Time against link rate, per case, with each link's floor](links{split.Replace("%", "pct", StringComparison.Ordinal)}.png)");
            }
        }
    }
}
