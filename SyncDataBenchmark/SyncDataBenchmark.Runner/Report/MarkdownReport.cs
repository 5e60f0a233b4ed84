using System.Globalization;
using System.Text;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>results.md: the original write-up's table, one row per combination and peer, with notes.</summary>
public static class MarkdownReport
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <param name="pictureProblem">Why the pictures could not be drawn, listed with the failures; null when they were (or were not asked for).</param>
    public static string Render(BenchReport report, bool charts, string? pictureProblem = null)
    {
        var md = new StringBuilder();
        md.AppendLine("# SyncDataBenchmark results").AppendLine();
        if (!report.Complete)
        {
            md.AppendLine("> **Incomplete:** the runner was stopped before every run finished.").AppendLine();
        }

        var anyFailure = report.Runs.Any(r => !r.Ok) || report.Peers.Any(r => !r.Ok) || report.Problems.Count > 0 || pictureProblem is not null;
        md.AppendLine(report.Passed && pictureProblem is null
            ? "Every run succeeded and was verified (target row count and checksum equal the source's)."
            : anyFailure ? "**Not every run succeeded and verified**: see Failures below."
            : "Every run that finished succeeded and was verified.").AppendLine();
        RenderParameters(md, report);
        RenderMainTable(md, report, charts);
        RenderWireAndCpu(md, report);
        RenderProfileComparison(md, report, charts);
        RenderNotes(md, report.Parameters.Repeat, charts);
        RenderAllocationCrossCheck(md, report);
        RenderFailures(md, report, pictureProblem);
        RenderSkippedPeers(md, report);
        if (charts)
        {
            md.AppendLine().AppendLine("![Time and memory across combinations](summary.png)");
        }

        RenderGrowth(md, report, charts);
        FloorRatios.Render(md, report);
        LinkTables.Render(md, report, charts);
        return md.ToString();
    }

    private static void RenderParameters(StringBuilder md, BenchReport report)
    {
        var p = report.Parameters;
        var e = report.Environment;
        var n = p.Repeat;
        md.AppendLine(p.Sizes.Count > 1
            ? $"- Sizes: {string.Join(", ", p.Sizes.Select(x => x.ToString("N0", Invariant)))} rows (a sweep: the source reseeded once per size); this table is at {p.Rows.ToString("N0", Invariant)}; {n} timed run(s) per case and size, interleaved round-robin within a size; {p.WarmupPolicy}"
            : $"- Rows: {p.Rows.ToString("N0", Invariant)}; {n} timed run(s) per case after {p.Warmups} untimed warm-up round(s), interleaved round-robin");
        md.AppendLine($"- Page size: {Setting(p.PageSize, report.Runs.Select(r => r.Result?.PageSize))}; batch size: {Setting(p.BatchSize, report.Runs.Select(r => r.Result?.BatchSize))}");
        md.AppendLine($"- PostgreSQL {e.PostgresVersion}, {(p.Database == "local" ? "throwaway local cluster" : "existing server (--connection)")}"
                      + (p.Tmpfs ? ", **tmpfs**" : ", on disk, default durability settings")
                      + (p.PostgresSettings.Count > 0 ? $" ({string.Join(", ", p.PostgresSettings.Select(s => $"{s.Key}={s.Value}"))})" : "")
                      + (p.SeedReused ? "; seed reused" : ""));
        md.AppendLine($"- {e.CpuModel}, {e.Cores} cores, {Bytes(e.MemoryBytes)} RAM; {e.Os}, kernel {e.Kernel}; {e.DotnetRuntime}");
        md.AppendLine($"- Services: {(p.ServicesStartedByRunner ? "started by the runner as separate Release processes" : "already running")}; SomeService {p.SomeServiceUrl}");
        md.AppendLine($"- Commit {e.GitCommit ?? "unknown"}{(e.GitDirty == true ? " (with uncommitted changes)" : "")}; {e.StartedAt:yyyy-MM-dd HH:mm} UTC; wall time {(e.WallTimeMs is { } w ? Estimator.Format(TimeSpan.FromMilliseconds(w)) : "n/a")}");
        md.AppendLine($"- Tools: {string.Join("; ", e.Tools.Values)}");
        var main = p.Profiles.FirstOrDefault(x => x.Main);
        md.AppendLine(main is null ? "- Runtime profile: not recorded"
            : $"- Runtime profile of this table: **{main.Name}** ({main.Description}){Reported(report, main.Name)}");
        md.AppendLine();
    }

    private static void RenderMainTable(StringBuilder md, BenchReport report, bool charts)
    {
        var n = report.Parameters.Repeat;
        string[] header =
        [
            "TestCase", "Rank", "FetchApproach", "InsertApproach", $"Process Time (best of {n})", "Compression",
            "SomeService Memory Allocated", "SomeService Physical Memory (peak)", "SomeService GC Collections", "SomeService GC Pause",
            "SyncDataSource Memory Allocated", "SyncDataSource Physical Memory (peak)", "SyncDataSource GC Collections", "SyncDataSource GC Pause",
            "Median", "StdDev", "Failures", "Verified", "Ratio to fastest", "Ratio to psql binary", "Time scope",
        ];
        md.AppendLine("| " + string.Join(" | ", header) + " |");
        md.AppendLine("|" + string.Concat(header.Select(_ => " --- |")));
        foreach (var row in report.Summary.Where(r => r.MainProfile))
        {
            md.AppendLine("| " + string.Join(" | ", Cells(row, charts).Select(Escape)) + " |");
        }
    }

    private static void RenderNotes(StringBuilder md, int n, bool charts)
    {
        md.AppendLine();
        md.AppendLine("Notes:").AppendLine();
        md.AppendLine($"- Process Time is the best of the {n} timed runs: SomeService's own measure of truncate, fetch, write and commit, "
                      + "excluding the verification query. Median and StdDev (sample) are over the successful timed runs.");
        md.AppendLine($"- **Memory and GC columns are per-run medians** over the successful timed runs, not sums: the original summed its 3 runs, "
                      + "so multiply allocation, collection and pause figures by 3 to compare with it. Physical Memory is the highest working set "
                      + "sampled (every 50 ms) during the run, not the process lifetime peak. GC collections are exclusive per generation.");
        md.AppendLine("- Memory Allocated is GC.GetTotalAllocatedBytes over the run where that is exact. Under DATAS it is not when the GC heap "
                      + "count changed during the run (it sums only the heaps in use: dotnet/runtime#131069, fixed after the runtime used here); "
                      + "then the cell shows the sum of the runtime's allocation events (GCAllocationTick, one per ~100 KiB per heap), "
                      + "marked \"(tick sum)\", which does not depend on the heap count and is within " + TickPrecisionText + " of the bytes allocated "
                      + "(docs/measuring.md). \"(k/n runs)\" marks a median over only the k runs that have the figure shown; \"n/a\" says why neither figure could be had.");
        md.AppendLine("- Rank orders the combinations by best time. Ratio to fastest divides a row's best time by the fastest combination's; "
                      + "Ratio to psql binary by the psql binary pipe's **at the same scope** (Time scope): \"target statements\" is the target's own "
                      + "clock from its first statement (truncate) to its commit, as SomeService measures a run and as the psql peers read "
                      + "clock_timestamp() around their statements; \"whole command\" is a peer's whole command, process starts and connections "
                      + "included, compared with the psql binary pipe's whole command and not with the fastest combination.");
        md.AppendLine("- Peers run in the same session on the same databases. Before each peer run (warm-up and timed) the runner empties the "
                      + "target and plants a sentinel row (untimed), and after it checks the target against the source itself (count and "
                      + "checksum), whatever the tool reported. `psql-binary`/`psql-text`: `psql \\copy to stdout | psql \\copy from stdin`, truncate + "
                      + "copy in one target transaction; `psql-binary-tuned`: the same plus the manual's \"Populating a Database\" advice (drop the "
                      + "primary key, maintenance_work_mem 1GB, COPY FREEZE, re-add the key); `postgres-fdw`: the target pulls with INSERT … SELECT "
                      + "from a postgres_fdw foreign table; `logical-replication`: a subscription's initial table synchronisation, timed until the "
                      + "table is synchronised; `pgcopydb`: psql truncate, then `pgcopydb copy table-data` (COPY, then VACUUM ANALYZE; its log "
                      + "is scanned for errors since it exits 0 on a failed COPY). Set-up and tear-down (foreign server, publication, slot, "
                      + "subscription drop) are untimed. They run no .NET process, so their memory and GC cells are empty.");
        md.AppendLine("- Failures counts failed or unverified timed runs; \"+ warm-up\" marks a failed warm-up.");
        if (charts)
        {
            md.AppendLine("- Each TestCase number links to its picture: both services' working set, allocation rate and GC collections over the best run.");
        }
    }

    private static void RenderFailures(StringBuilder md, BenchReport report, string? pictureProblem)
    {
        var failures = report.Runs.Where(r => !r.Ok).Select(r => $"{r.Case} {(r.Warmup ? "warm-up" : $"run {r.Round}")}: {r.Error}")
            .Concat(report.Peers.Where(r => !r.Ok).Select(r => $"{r.Peer} {(r.Warmup ? "warm-up" : $"run {r.Round}")}: {r.Error}"))
            .Concat(report.Problems)
            .Concat(pictureProblem is null ? [] : [$"The pictures: {pictureProblem}"])
            .ToList();
        if (failures.Count > 0)
        {
            md.AppendLine().AppendLine("Failures:").AppendLine();
            foreach (var f in failures)
            {
                md.AppendLine($"- {f}");
            }
        }
    }

    private static void RenderSkippedPeers(StringBuilder md, BenchReport report)
    {
        if (report.SkippedPeers.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("Skipped peers (the server cannot run them):").AppendLine();
        foreach (var s in report.SkippedPeers)
        {
            md.AppendLine($"- {Escape(s.Title)}: {s.Reason}");
        }
    }

    private static IEnumerable<string> Cells(CaseSummary row, bool charts)
    {
        var testCase = row.Kind switch
        {
            CaseSummary.Kinds.Combination when charts => $"[{row.Number}]({row.Picture})",
            CaseSummary.Kinds.Combination => row.Number!.Value.ToString(Invariant),
            _ => $"peer: {row.Title}",
        };

        var time = row.BestMs is { } best ? Ms(best) : row.TimedRuns == 0 ? "not run" : "no successful run";
        return
        [
            testCase,
            row.Rank?.ToString(Invariant) ?? "—",
            row.Fetch,
            row.Insert,
            time,
            row.Kind == CaseSummary.Kinds.Combination ? row.Compression : "—",
            .. Figures(row.SomeService),
            .. Figures(row.SyncDataSource),
            row.MedianMs is { } median ? Ms(median) : "—",
            row.StdDevMs is { } sd ? Ms(sd) : "—",
            row.Failures.ToString(Invariant) + (row.WarmupFailed ? " + warm-up" : ""),
            $"{row.Succeeded}/{row.TimedRuns}",
            row.RatioToFastest is { } rf ? $"{rf:0.00}×" : "—",
            row.RatioToPsqlBinary is { } rp ? $"{rp:0.00}×" : "—",
            Scope(row),
        ];
    }

    /// <summary>The sweep's table: best time per size and the exponents fitted on log–log (README, "How it scales").</summary>
    private static void RenderGrowth(StringBuilder md, BenchReport report, bool charts)
    {
        if (report.Growth.Count == 0 && report.Skipped.Count == 0)
        {
            return;
        }

        var sizes = report.Parameters.Sizes;
        md.AppendLine().AppendLine("## How cost grows with rows").AppendLine();
        md.AppendLine("Best time per size; k is the exponent of a least-squares fit of log(best time) on log(rows) (1 = linear, 2 = quadratic), " +
                      "and of log(peak working set) on log(rows) per service (0 = flat). The number of sizes fitted is in brackets.").AppendLine();
        string[] header = ["Case", .. sizes.Select(x => x.ToString("N0", Invariant) + " rows"), "k time", "k peak WS SomeService", "k peak WS SyncDataSource"];
        md.AppendLine("| " + string.Join(" | ", header) + " |");
        md.AppendLine("|" + string.Concat(Enumerable.Repeat(" --- |", header.Length)));
        foreach (var g in report.Growth)
        {
            var cells = new List<string> { Escape(g.Title + (g.MainProfile ? "" : $" [{g.Profile}]")) };
            foreach (var size in sizes)
            {
                var point = g.Points.FirstOrDefault(x => x.Rows == size);
                var skip = g.Skipped.FirstOrDefault(x => x.Rows == size);
                cells.Add(point?.BestMs is { } best ? Ms(best) + (point.SomeServicePeakWorkingSetBytes is { } ws ? $" ({Bytes(ws)} WS)" : "")
                    : skip is not null ? $"skipped: predicted {Ms(skip.PredictedMs)}"
                    : "—");
            }

            cells.Add(Growth.Describe(g.Time));
            cells.Add(Growth.Describe(g.SomeServiceWorkingSet));
            cells.Add(Growth.Describe(g.SyncDataSourceWorkingSet));
            md.AppendLine("| " + string.Join(" | ", cells) + " |");
        }

        if (report.Skipped.Count > 0)
        {
            md.AppendLine().AppendLine($"Skipped (predicted past --max-run-seconds {report.Parameters.MaxRunSeconds?.ToString("0", Invariant) ?? "—"}, from the smaller sizes: time ∝ rows^k, k fitted but at least 1):").AppendLine();
            foreach (var s in report.Skipped)
            {
                md.AppendLine($"- {Escape(s.Title)}: skipped at {s.Rows.ToString("N0", Invariant)} rows: {s.Reason}");
            }
        }

        if (charts)
        {
            md.AppendLine().AppendLine("![Time and peak working set against rows, log–log](growth.png)");
        }
    }

    private static string Scope(CaseSummary row) => row.Scope switch
    {
        PeerScopes.WholeCommand => "whole command",
        PeerScopes.TargetStatements when row.Kind == CaseSummary.Kinds.Peer && row.BestWallMs is { } wall => $"target statements (whole command {Ms(wall)})",
        PeerScopes.TargetStatements => "target statements",
        _ => "—",
    };

    private static string[] Figures(FigureMedians? f) => f is null
        ? ["—", "—", "—", "—"]
        : [
            Allocated(f),
            Bytes(f.PeakWorkingSetBytes),
            $"gen0: {Count(f.GcGen0)}, gen1: {Count(f.GcGen1)}, gen2: {Count(f.GcGen2)}",
            Ms(f.GcPauseMs),
        ];

    /// <summary>
    /// An allocation median and its source (FigureMedians.ShownAllocatedBytes), or why there is none; a partial
    /// median says over how many runs.
    /// </summary>
    public static string Allocated(FigureMedians f)
    {
        if (f.ShownAllocatedBytes is not { } bytes)
        {
            var datas = f.AllocatedBytesUnavailable?.Contains("DATAS", StringComparison.Ordinal) == true ? "DATAS, " : "";
            return $"n/a ({datas}no tick sum: {f.AllocationTickUnavailable ?? "not measured"})";
        }

        var runs = f.FromTicks ? f.AllocationTickRuns : f.AllocatedRuns;
        var partial = runs < f.Runs ? $"{runs}/{f.Runs} runs" : null;
        var marks = new[] { f.FromTicks ? "tick sum" : null, partial }.OfType<string>().ToList();
        return marks.Count == 0 ? Bytes(bytes) : $"{Bytes(bytes)} ({string.Join(", ", marks)})";
    }

    /// <summary>ServiceFigures.AllocationTickPrecisionBytes in words.</summary>
    private const string TickPrecisionText = "±(0.5% + 512 KiB per GC heap, at least 1 MiB)";

    /// <summary>
    /// The cross-check of the two allocation figures over every run that has both (heap count unchanged): they must
    /// agree within ServiceFigures.AllocationTickPrecisionBytes; a disagreement is listed, not hidden.
    /// </summary>
    private static void RenderAllocationCrossCheck(StringBuilder md, BenchReport report)
    {
        var pairs = report.Runs.Where(r => r is { Ok: true, Warmup: false })
            .SelectMany(r => new[] { ("SomeService", r, r.Result!.SomeService), ("SyncDataSource", r, r.Result!.SyncDataSource) })
            .Where(x => x.Item3?.AllocationTicksAgree is not null)
            .ToList();
        if (pairs.Count == 0)
        {
            return;
        }

        // How much of its margin each pair used: small figures are held to the fixed part, large ones to the 0.5%.
        var worst = pairs.Max(x => Math.Abs(x.Item3!.AllocationTickBytes!.Value - x.Item3.AllocatedBytes!.Value)
                                   / (double)x.Item3.AllocationTickPrecision());
        var off = pairs.Where(x => x.Item3!.AllocationTicksAgree == false).ToList();
        md.AppendLine($"- Allocation cross-check: {pairs.Count} service figures had both GC.GetTotalAllocatedBytes and the tick sum; "
                      + (off.Count == 0
                          ? $"all agreed within {TickPrecisionText} (the largest difference used {worst * 100:0}% of that margin)."
                          : $"**{off.Count} did not** agree within {TickPrecisionText}: "
                            + string.Join("; ", off.Select(x => $"{x.Item2.Case} run {x.Item2.Round} {x.Item1}: {x.Item3!.AllocatedBytes:N0} vs {x.Item3.AllocationTickBytes:N0} bytes"))));
    }

    private static string Reported(BenchReport report, string profile)
    {
        var some = report.Summary.FirstOrDefault(r => r.Profile == profile && r.SomeService?.Runtime is not null)?.SomeService?.Runtime;
        return some is null ? "" : $"; SomeService reported: {SyncData.Harness.RuntimeProfiles.Describe(some)}";
    }

    /// <summary>
    /// The second table: the cases measured under every profile, each profile beside the main one, with the
    /// differences from it called out.
    /// </summary>
    private static void RenderProfileComparison(StringBuilder md, BenchReport report, bool charts)
    {
        var others = report.Summary.Where(r => r is { Kind: CaseSummary.Kinds.Combination, MainProfile: false }).ToList();
        if (others.Count == 0)
        {
            return;
        }

        var mainName = report.Parameters.Profiles.FirstOrDefault(x => x.Main)?.Name ?? "default";
        md.AppendLine().AppendLine($"## Runtime profiles: the same cases under each profile, against {mainName}").AppendLine();
        foreach (var profile in report.Parameters.Profiles)
        {
            md.AppendLine($"- **{profile.Name}**: {profile.Description}; environment: "
                          + (profile.Environment.Count == 0 ? "none (the services' own runtimeconfig)" : string.Join(", ", profile.Environment.Select(kv => $"`{kv.Key}={kv.Value}`")))
                          + Reported(report, profile.Name));
        }

        md.AppendLine();
        string[] header =
        [
            "TestCase", "Profile", $"Process Time (best of {report.Parameters.Repeat})", "Median",
            "SomeService Memory Allocated", "SomeService Physical Memory (peak)", "SomeService GC Collections", "SomeService GC Pause",
            "SyncDataSource Memory Allocated", "SyncDataSource Physical Memory (peak)", "SyncDataSource GC Collections", "SyncDataSource GC Pause",
            "Verified",
        ];
        md.AppendLine("| " + string.Join(" | ", header) + " |");
        md.AppendLine("|" + string.Concat(header.Select(_ => " --- |")));
        foreach (var group in others.GroupBy(r => r.Case))
        {
            var baseline = report.Summary.FirstOrDefault(r => r is { Kind: CaseSummary.Kinds.Combination, MainProfile: true } && r.Case == group.Key);
            foreach (var row in (baseline is null ? group : group.Prepend(baseline)))
            {
                md.AppendLine("| " + string.Join(" | ", ProfileCells(row, baseline, charts).Select(Escape)) + " |");
            }
        }

        md.AppendLine();
        md.AppendLine($"Differences in brackets are against {mainName} for the same case in the same session: percentages for time, memory and "
                      + "pause, collection counts per generation as signed differences. The same notes apply as above (per-run medians; "
                      + "\"(tick sum)\" where DATAS changed the heap count during the runs).");
    }

    /// <summary>
    /// Per combination: the fetch bodies' bytes per row on the wire and decoded, their ratio, and both services' CPU
    /// time (per-run medians), so what a compression saves on the wire shows beside what it costs in CPU.
    /// </summary>
    private static void RenderWireAndCpu(StringBuilder md, BenchReport report)
    {
        var rows = report.Summary.Where(r => r is { Kind: CaseSummary.Kinds.Combination, MainProfile: true }).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        md.AppendLine().AppendLine("## Bytes on the wire and CPU time").AppendLine();
        string[] header = ["TestCase", "Compression", "Wire bytes/row", "Body bytes/row", "Wire / body", "SomeService CPU", "SyncDataSource CPU", "SomeService JIT", "SyncDataSource JIT"];
        md.AppendLine("| " + string.Join(" | ", header) + " |");
        md.AppendLine("|" + string.Concat(header.Select(_ => " --- |")));
        foreach (var row in rows)
        {
            string[] cells =
            [
                $"{row.Number} {row.Fetch} × {row.Insert}",
                row.Compression,
                row.WireBytesPerRow is { } wire ? wire.ToString("0.0", Invariant) : "—",
                row.BodyBytesPerRow is { } body ? body.ToString("0.0", Invariant) : "—",
                row is { WireBytesPerRow: { } w, BodyBytesPerRow: > 0 and var b } ? (w / b).ToString("0.000", Invariant) : "—",
                row.SomeService?.CpuTimeMs is { } some ? Ms(some) : "—",
                row.SyncDataSource?.CpuTimeMs is { } src ? Ms(src) : "—",
                row.SomeService?.JitTimeMs is { } someJit ? Ms(someJit) : "—",
                row.SyncDataSource?.JitTimeMs is { } srcJit ? Ms(srcJit) : "—",
            ];
            md.AppendLine("| " + string.Join(" | ", cells.Select(Escape)) + " |");
        }

        md.AppendLine();
        md.AppendLine("Bytes are the fetch responses' bodies (headers excluded) as SomeService received them, counted under its decoder, "
                      + "and decoded; per row moved, medians over the successful timed runs. CPU is each process's processor time (user + "
                      + "kernel, all threads) over the run, compressing and decoding included (cpuTimeMs, docs/endpoints.md); JIT is the part of "
                      + "it the JIT spent compiling (jitTimeMs: tiering still at work after a start; --warmup keeps it out of the timed runs).");
    }

    /// <summary>A row of the profile table; a row other than the baseline shows its differences from it.</summary>
    private static string[] ProfileCells(CaseSummary row, CaseSummary? baseline, bool charts)
    {
        var vs = row == baseline ? null : baseline;
        return
        [
            charts ? $"[{row.Number}]({row.Picture}) {row.Title}" : $"{row.Number} {row.Title}",
            row == baseline ? $"**{row.Profile}**" : row.Profile,
            row.BestMs is { } best ? Ms(best) + Change(best, vs?.BestMs) : row.TimedRuns == 0 ? "not run" : "no successful run",
            row.MedianMs is { } median ? Ms(median) + Change(median, vs?.MedianMs) : "—",
            .. Compared(row.SomeService, vs?.SomeService),
            .. Compared(row.SyncDataSource, vs?.SyncDataSource),
            $"{row.Succeeded}/{row.TimedRuns}",
        ];
    }

    private static string[] Compared(FigureMedians? f, FigureMedians? vs)
    {
        if (f is null)
        {
            return ["—", "—", "—", "—"];
        }

        var gc = $"gen0: {Count(f.GcGen0)}, gen1: {Count(f.GcGen1)}, gen2: {Count(f.GcGen2)}";
        if (vs is not null)
        {
            gc += $" ({Signed(f.GcGen0 - vs.GcGen0)}/{Signed(f.GcGen1 - vs.GcGen1)}/{Signed(f.GcGen2 - vs.GcGen2)})";
        }

        return
        [
            Allocated(f) + (f.ShownAllocatedBytes is { } a ? Change(a, vs?.ShownAllocatedBytes) : ""),
            Bytes(f.PeakWorkingSetBytes) + Change(f.PeakWorkingSetBytes, vs?.PeakWorkingSetBytes),
            gc,
            Ms(f.GcPauseMs) + Change(f.GcPauseMs, vs?.GcPauseMs),
        ];
    }

    /// <summary>" (+12%)" against the baseline; nothing without one (or from zero, where a percentage means nothing).</summary>
    public static string Change(double value, double? baseline) => baseline is { } b && b > 0
        ? $" ({((value / b - 1) * 100).ToString("+0;−0;±0", Invariant)}%)"
        : "";

    private static string Signed(double value) => value.ToString("+0.#;−0.#;0", Invariant);

    private static string Setting(int? asked, IEnumerable<int?> used)
    {
        var values = used.OfType<int>().Distinct().Order().ToList();
        var seen = values.Count == 0 ? "not used by the runs" : string.Join(", ", values.Select(v => v.ToString("N0", Invariant)));
        return asked is null ? $"{seen} (SomeService default)" : seen;
    }

    public static string Ms(double ms) => ms >= 100 ? ms.ToString("N0", Invariant) + " ms" : ms.ToString("0.#", Invariant) + " ms";

    private static string Count(double value) => value.ToString("0.#", Invariant);

    public static string Bytes(double bytes) => bytes switch
    {
        >= 1L << 30 => (bytes / (1L << 30)).ToString("0.00", Invariant) + " GiB",
        >= 100L << 20 => (bytes / (1L << 20)).ToString("0", Invariant) + " MiB",
        >= 1L << 20 => (bytes / (1L << 20)).ToString("0.0", Invariant) + " MiB",
        >= 1L << 10 => (bytes / (1L << 10)).ToString("0", Invariant) + " KiB",
        _ => bytes.ToString("0", Invariant) + " B",
    };

    private static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal).Replace("\n", " ", StringComparison.Ordinal);
}
