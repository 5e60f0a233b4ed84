using System.Text;
using System.Text.RegularExpressions;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// The parts of a page (README.md) rendered from records rather than written by hand: a computed verdict, a headline
/// table or a --follow record's "Keeping a copy fresh" table, each between markers that name the block and the record's folder, relative to the page
/// (<c>&lt;!-- generated: verdict of artifacts --&gt;</c> … <c>&lt;!-- end: verdict of artifacts --&gt;</c>).
/// <c>--readme PAGE</c> rewrites them; a Fast test holds the committed README to what its records render, so a figure
/// there cannot drift from its run.
/// </summary>
public static partial class ReadmeBlocks
{
    public const string VerdictBlock = "verdict";
    public const string HeadlineBlock = "headline";
    public const string FollowBlock = "follow";

    /// <summary>Every block of <paramref name="page"/> rendered again; <paramref name="record"/> reads a folder's record, by the path the marker gives.</summary>
    public static string Rewrite(string page, Func<string, ReportTables> record)
    {
        var blocks = Block().Matches(page);
        if (blocks.Count == 0)
        {
            throw new InvalidOperationException($"The page marks no block to render: put <!-- generated: {VerdictBlock} of FOLDER --> and <!-- end: {VerdictBlock} of FOLDER --> "
                                                + $"(or {HeadlineBlock}, {FollowBlock}) where it goes, FOLDER holding a results.json, relative to the page.");
        }

        return Block().Replace(page, m => m.Groups["begin"].Value + Render(m.Groups["name"].Value, m.Groups["folder"].Value, record(m.Groups["folder"].Value)) + m.Groups["end"].Value);
    }

    /// <summary>One block's text between its markers: where it comes from, then the table (blank lines around it, as markdown needs).</summary>
    public static string Render(string name, string folder, ReportTables tables)
    {
        var md = new StringBuilder().AppendLine().AppendLine();
        var e = tables.Record.Environment;
        md.AppendLine($"Rendered from [{folder}/results.json]({folder}/results.md) (`--readme`): code {e.GitCommit?[..Math.Min(7, e.GitCommit.Length)] ?? "unknown"}"
                      + $"{(e.GitDirty == true ? " with uncommitted changes" : "")}, {e.StartedAt:yyyy-MM-dd HH:mm} UTC, "
                      + $"wall time {(e.WallTimeMs is { } w ? Estimator.Format(TimeSpan.FromMilliseconds(w)) : "n/a")}.").AppendLine();
        switch (name)
        {
            case VerdictBlock:
                md.AppendLine(Verdict.Rule).AppendLine();
                MarkdownTable.Append(md, Verdict.Columns, Verdict.Build(tables));
                break;
            case HeadlineBlock:
                MarkdownTable.Append(md, SummaryColumns.Readme(tables.Parameters.Charts, folder + "/"), tables.Summary.Where(r => r.MainProfile));
                break;
            case FollowBlock:
                MarkdownTable.Append(md, FollowCellColumns.All, FollowCell.Of(tables.Record.Follow ?? throw new InvalidOperationException($"{folder}/results.json holds no --follow runs.")));
                break;
            default:
                throw new InvalidOperationException($"No block is named '{name}': {VerdictBlock}, {HeadlineBlock} and {FollowBlock} are.");
        }

        return md.AppendLine().ToString();
    }

    /// <summary>Each block as the page holds it now: its name, its record's folder and its text, for the test to compare.</summary>
    public static IReadOnlyList<(string Name, string Folder, string Text)> Read(string page) =>
        [.. Block().Matches(page).Select(m => (m.Groups["name"].Value, m.Groups["folder"].Value, m.Groups["body"].Value))];

    [GeneratedRegex(@"(?<begin><!-- generated: (?<name>[a-z]+) of (?<folder>[^ ]+) -->)(?<body>.*?)(?<end><!-- end: \k<name> of \k<folder> -->)", RegexOptions.Singleline)]
    private static partial Regex Block();
}
