using System.Text;
using Perfolizer.Mathematics.Common;
using static SyncDataBenchmark.Runner.Report.ReportFormat;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// "What to pick", computed from the records by one rule, written into results.md: for each situation (a filter on the
/// combinations, a table or share of its own, a shaped link), among its main-profile combinations whose every timed run verified, the one
/// with the lowest median; every one a Mann-Whitney test with a threshold (RunStatistics.Compare) cannot tell from it,
/// as ties; then the runner-up, the fastest the test says is slower.
/// </summary>
public static class Verdict
{
    /// <summary>Each situation and which combinations it may pick, from their fetch and insert names.</summary>
    public static IReadOnlyList<(string Situation, Func<SummaryRow, bool> Allowed)> Situations { get; } =
    [
        ("A full copy, any way", _ => true),
        ("No package beyond EF Core and Npgsql", r => (r.Fetch.StartsWith("EF", StringComparison.Ordinal) || r.Fetch.StartsWith("NpgsqlCopy", StringComparison.Ordinal))
            && WriterLibrary.Of(r.Insert) is "EF Core" or "Npgsql COPY"),
        ("No paid licence (no EFCore.BulkExtensions)", r => WriterLibrary.Of(r.Insert) != "EFCore.BulkExtensions"),
        ("An ORM's own writer, no paid licence", r => WriterLibrary.Of(r.Insert) is "EF Core" or "linq2db"),
    ];

    /// <summary>The headline split's situations, then one "any way" row per further split (a table, a changed share) and per shaped link.</summary>
    public static IReadOnlyList<VerdictRow> Build(ReportTables tables)
    {
        var splits = tables.Summary.Select(r => r.Split).Distinct().Where(s => s != "");
        var links = tables.Links.Where(l => l.RateBitsPerSecond is not null);
        return
        [
            .. Build(tables.Summary),
            .. splits.Select(split => Of($"A full copy, any way [{split[1..]}]", Candidates(tables.Summary, split))),
            .. links.Select(link => Of($"A full copy across the {link.Link} link, any way", Candidates(link.Cases, ""))),
        ];
    }

    /// <summary>The headline split's situations.</summary>
    public static IReadOnlyList<VerdictRow> Build(IReadOnlyList<SummaryRow> summary) =>
        [.. Situations.Select(s => Of(s.Situation, Candidates(summary, "").Where(s.Allowed)))];

    /// <summary>The main profile's combinations of one split whose every timed run verified.</summary>
    private static IEnumerable<SummaryRow> Candidates(IEnumerable<SummaryRow> rows, string split) =>
        rows.Where(r => r is { Kind: SummaryRow.Kinds.Combination, MainProfile: true, Failures: 0, MedianMs: not null } && r.Split == split);

    private static VerdictRow Of(string situation, IEnumerable<SummaryRow> candidates)
    {
        var ranked = candidates.OrderBy(r => r.MedianMs).ToList();
        if (ranked.Count == 0)
        {
            return new VerdictRow(situation, null, [], null);
        }

        var use = ranked[0];
        var compared = ranked.Skip(1).Select(r => (Row: r, Result: RunStatistics.Compare(r.Durations, use.Durations))).ToList();
        return new VerdictRow(situation, use,
            [.. compared.Where(c => c.Result is ComparisonResult.Indistinguishable or ComparisonResult.Unknown).Select(c => c.Row)],
            compared.FirstOrDefault(c => c.Result == ComparisonResult.Greater).Row);
    }

    /// <summary>The "What to pick" section of results.md.</summary>
    public static void Append(StringBuilder md, ReportTables tables)
    {
        var rows = Build(tables);
        if (rows.All(r => r.Use is null))
        {
            return;
        }

        md.AppendLine().AppendLine("## What to pick (computed)").AppendLine();
        md.AppendLine($"For each situation: the verified combination with the lowest median; every combination a Mann-Whitney test with a {RunStatistics.TieThreshold} threshold "
                      + $"(α = {RunStatistics.Alpha}) cannot tell from it (a tie: pick by something else); the runner-up, the fastest the test says is slower. "
                      + "Ratios are median/median to the psql binary pipe, with their 95% interval.").AppendLine();
        var columns = new ReportColumn<VerdictRow>[]
        {
            new("Situation", r => r.Situation),
            new("Use", r => r.Use is { } u ? Figure(u) : "none measured"),
            new("Not told apart from it", r => r.Tied.Count == 0 ? "none" : string.Join("; ", r.Tied.Select(Figure))),
            new("Runner-up", r => r.RunnerUp is { } u ? Figure(u) : "none told apart"),
        };
        MarkdownTable.Append(md, columns, rows);
    }

    private static string Figure(SummaryRow r) =>
        $"{r.Label}: {Ms(r.MedianMs!.Value)}" + (r.RatioToPsqlBinary is { } x ? $", {SummaryColumns.RatioToPsqlBinary.Cell(r)} pipe" : "") + $", n={r.Succeeded}";
}
