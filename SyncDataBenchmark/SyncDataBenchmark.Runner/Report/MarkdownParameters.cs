using System.Text;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>results.md's opening list: what was measured, on what, with which settings.</summary>
public static class MarkdownParameters
{
    public static void Append(StringBuilder md, ReportTables tables)
    {
        var report = tables.Record;
        var p = report.Parameters;
        var e = report.Environment;
        var n = p.Repeat;
        if (p.Seed is { } seed)
        {
            md.AppendLine((p.Sizes.Count > 1 ? $"- Sizes: {string.Join(", ", p.Sizes.Select(Rows))} rows (a sweep: the source reseeded once per size); this table is at {Rows(p.Rows)}" : $"- Rows: {Rows(p.Rows)}")
                + $"; each case at least {n} timed runs, then more until the 95% interval of its median/median ratio to the psql binary pipe was within {p.TargetWidth:P0} "
                + $"of the ratio, or its timed runs had spent {p.CaseBudgetSeconds:0} s (\"budget: few runs\"), at most {p.MaxRepeat} (Runs says which); "
                + $"rounds in a random order from seed {seed} (`--seed {seed}` repeats it), profiles interleaved with the default runs of the same cases; {p.WarmupPolicy}");
        }
        else
        {
            md.AppendLine(p.Sizes.Count > 1
                ? $"- Sizes: {string.Join(", ", p.Sizes.Select(Rows))} rows (a sweep: the source reseeded once per size); this table is at {Rows(p.Rows)}; {n} timed run(s) per case and size, interleaved round-robin within a size; {p.WarmupPolicy}"
                : $"- Rows: {Rows(p.Rows)}; {n} timed run(s) per case after {p.Warmups} untimed warm-up round(s), interleaved round-robin");
        }

        if (p.OwnTable is { } own)
        {
            md.AppendLine($"- Source: your table {own.Table} ({own.Source}), only read (`--source-connection`), moved whole; the target is the lab's own database, not seeded");
            foreach (var line in own.LeftOut)
            {
                md.AppendLine($"- {line}");
            }

            if (own.Columns is { Count: > 0 } columns)
            {
                md.AppendLine("- Each column's CLR type in the generated row class, the same for every typed writer: " + string.Join("; ",
                    columns.Select(c => $"{c.Name} ({c.Type}): {c.ClrType ?? "none, " + c.NotMapped}")));
            }
        }

        md.AppendLine($"- Page size: {Setting(p.PageSize, report.Runs.Select(r => r.Result?.PageSize))}; batch size: {Setting(p.BatchSize, report.Runs.Select(r => r.Result?.BatchSize))}");
        AppendMachine(md, report);
        var main = p.Profiles.First(x => x.Main);
        md.AppendLine($"- Runtime profile of this table: **{main.Name}** ({main.Description}){Reported(tables, main.Name)}");
        md.AppendLine();
    }

    /// <summary>"; SomeService reported: …" from the runs of that profile; nothing when none reported.</summary>
    /// <summary>Where it ran: the server, the machine, the services, the commit, the tools (also the --follow page's).</summary>
    public static void AppendMachine(StringBuilder md, BenchResults report)
    {
        var p = report.Parameters;
        var e = report.Environment;
        md.AppendLine($"- PostgreSQL {e.PostgresVersion}, {(p.Database == "local" ? "throwaway local cluster" : "existing server (--connection)")}"
                      + (p.Tmpfs ? ", **tmpfs**" : ", on disk, default durability settings")
                      + (p.PostgresSettings.Count > 0 ? $" ({string.Join(", ", p.PostgresSettings.Select(s => $"{s.Key}={s.Value}"))})" : "")
                      + (p.SeedReused ? "; seed reused" : ""));
        md.AppendLine($"- {e.CpuModel}, {e.Cores} cores, {Bytes(e.MemoryBytes)} RAM; {e.Os}, kernel {e.Kernel}; {e.DotnetRuntime}");
        md.AppendLine($"- Services: {(p.ServicesStartedByRunner ? "started by the runner as separate Release processes" : "already running")}; SomeService {Where(p)}");
        md.AppendLine($"- Commit {e.GitCommit ?? "unknown"}{(e.GitDirty == true ? " (with uncommitted changes)" : "")}; {e.StartedAt:yyyy-MM-dd HH:mm} UTC; wall time {(e.WallTimeMs is { } w ? Estimator.Format(TimeSpan.FromMilliseconds(w)) : "n/a")}");
        md.AppendLine($"- Tools: {string.Join("; ", e.Tools.Values)}");
    }

    public static string Reported(ReportTables tables, string profile)
    {
        var some = tables.Summary.FirstOrDefault(r => r.Profile == profile && r.SomeService?.Runtime is not null)?.SomeService?.Runtime;
        return some is null ? "" : $"; SomeService reported: {SyncData.Harness.RuntimeProfiles.Describe(some)}";
    }

    /// <summary>Where SomeService listened: a port or socket the runner picked at start says nothing a reader can reuse, so only its kind is named.</summary>
    private static string Where(BenchParameters p)
    {
        if (!p.ServicesStartedByRunner || !Uri.TryCreate(p.SomeServiceUrl, UriKind.Absolute, out var url))
        {
            return p.SomeServiceUrl;
        }

        return url.Host == "unix" ? "on a Unix socket" : $"on {url.Host}, a port chosen at start";
    }

    private static string Setting(int? asked, IEnumerable<int?> used)
    {
        var values = used.OfType<int>().Distinct().Order().ToList();
        var seen = values.Count == 0 ? "not used by the runs" : string.Join(", ", values.Select(v => Rows(v)));
        return asked is null ? $"{seen} (SomeService default)" : seen;
    }
}
