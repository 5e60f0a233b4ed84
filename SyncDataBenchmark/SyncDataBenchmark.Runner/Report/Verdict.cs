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

    /// <summary>
    /// The headline split's situations, then one "any way" row per further split (a table, a changed share) and per
    /// split of every further shaped link; a situation nothing was measured for is left out. The headline is the first
    /// link's, so when that link is shaped every row says so.
    /// </summary>
    public static IReadOnlyList<VerdictRow> Build(ReportTables tables)
    {
        var first = tables.Parameters.Links[0];
        var across = first.Shaped ? $", across the {first.Name} link" : "";
        var splits = tables.Summary.Select(r => r.Split).Distinct().Where(s => s != "");
        var links = tables.Links.Skip(1).Where(l => l.RateBitsPerSecond is not null);
        return
        [
            .. Build(tables.Summary).Select(r => r with { Situation = r.Situation + across }),
            .. splits.Select(split => Of($"{Any(tables.Parameters)}{across} {Split(split)}", Candidates(tables.Summary, split))).Where(r => r.Use is not null),
            .. links.SelectMany(link => link.Cases.Select(r => r.Split).Distinct().Select(split =>
                Of($"{Any(tables.Parameters)}, across the {link.Link} link{(split == "" ? "" : " " + Split(split))}", Candidates(link.Cases, split)))).Where(r => r.Use is not null),
        ];
    }

    /// <summary>The headline split's situations that have a candidate.</summary>
    public static IReadOnlyList<VerdictRow> Build(IReadOnlyList<SummaryRow> summary) =>
        [.. Situations.Select(s => Of(s.Situation, Candidates(summary, "").Where(s.Allowed))).Where(r => r.Use is not null)];

    /// <summary>What every way of a split does: a full copy, or (--changed) bring a populated target up to date.</summary>
    private static string Any(BenchParameters parameters) => parameters.Changed is null ? "A full copy, any way" : "A target whose source changed by the share, any way";

    /// <summary>"[orders]" for the split "-orders" (CaseIdentity.Split: its values, each after a '-').</summary>
    private static string Split(string split) => $"[{split[1..]}]";

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
            [.. compared.Where(c => c.Result is ComparisonResult.Indistinguishable).Select(c => c.Row)],
            compared.FirstOrDefault(c => c.Result == ComparisonResult.Greater).Row)
        {
            TooFew = [.. compared.Where(c => c.Result is ComparisonResult.Unknown).Select(c => c.Row)],
        };
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
        md.AppendLine(Rule).AppendLine();
        MarkdownTable.Append(md, Columns, rows);
    }

    /// <summary>The rule each row follows, in words.</summary>
    public static string Rule { get; } =
        $"For each situation: the verified combination with the lowest median; every combination a Mann-Whitney test with a {RunStatistics.TieThreshold} threshold "
        + $"(α = {RunStatistics.Alpha}) cannot tell from it (a tie: pick by something else); the runner-up, the fastest the test says is slower. "
        + $"A way with fewer than {RunStatistics.MinTestRuns} timed runs, or compared with one, is not called either way: {RunStatistics.TooFewRuns}. "
        + "Runs flagged as still compiling are left out. Ratios are median/median to the psql binary pipe's median, with their 95% interval.";

    /// <summary>The table's columns: results.md and README print the same.</summary>
    public static IReadOnlyList<ReportColumn<VerdictRow>> Columns { get; } =
    [
        new("Situation", r => r.Situation),
        new("Use", r => r.Use is { } u ? Figure(u) : "none measured"),
        new("Not told apart from it", r => r.Tied.Count == 0 ? "none" : string.Join("; ", r.Tied.Select(Figure))),
        new("Runner-up", r => r.RunnerUp is { } u ? Figure(u) : "none told apart"),
        new(char.ToUpperInvariant(RunStatistics.TooFewRuns[0]) + RunStatistics.TooFewRuns[1..], r => r.TooFew.Count == 0 ? "none" : string.Join("; ", r.TooFew.Select(Figure))),
    ];

    private static string Figure(SummaryRow r) =>
        $"{r.Label}: {Ms(r.MedianMs!.Value)}" + (r.RatioToPsqlBinary is { } x ? $", {SummaryColumns.RatioToPsqlBinary.Cell(r)} pipe (median/median)" : "") + $", n={r.Succeeded}";
}
