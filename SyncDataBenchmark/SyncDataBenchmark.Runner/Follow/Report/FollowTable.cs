using SyncDataBenchmark.Runner.Report;
using System.Text;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>results.md's "Keeping a copy fresh" section: one row per table × rate × mechanism (medians of the repeats), then one per run, from the record alone; then what it cost, and any outage, each its own table.</summary>
public static class FollowTable
{
    public const string Title = "Keeping a copy fresh";

    public const string RunsTitle = "Each run";

    public const string StagesTitle = "Where NpgsqlReplication's lag goes";

    public static void Append(StringBuilder md, IReadOnlyList<FollowRun>? runs)
    {
        if (runs is not { Count: > 0 })
        {
            return;
        }

        md.AppendLine().AppendLine($"## {Title}").AppendLine();
        md.AppendLine($"Each mechanism followed the source while pgbench wrote for {runs[0].Seconds:0.#} s (`--follow`); the target started emptied but for a sentinel row, "
                      + "the mechanism's own first copy brought it level before the load began.").AppendLine();
        MarkdownTable.Append(md, FollowCellColumns.All, FollowCell.Of(runs));
        MarkdownTable.AppendLegends(md, FollowCellColumns.All);
        md.AppendLine().AppendLine($"### {RunsTitle}").AppendLine();
        MarkdownTable.Append(md, FollowColumns.All, runs);
        MarkdownTable.AppendLegends(md, FollowColumns.All);
        if (runs.Any(r => r.Stages is not null))
        {
            // Only records made since the stages were measured have them: an older record renders as it always did.
            md.AppendLine().AppendLine($"### {StagesTitle}").AppendLine();
            MarkdownTable.Append(md, FollowColumns.Stages, runs);
            MarkdownTable.AppendLegends(md, FollowColumns.Stages);
        }

        if (runs.Any(r => r.Writers is not null || r.Cost is not null))
        {
            md.AppendLine().AppendLine("### What it cost: the source's writers, and each service per change").AppendLine();
            MarkdownTable.Append(md, FollowCostColumns.All, runs);
            MarkdownTable.AppendLegends(md, FollowCostColumns.All);
        }

        if (runs.Where(r => r.Outage is not null).ToList() is { Count: > 0 } outages)
        {
            md.AppendLine().AppendLine($"### An outage of {outages[0].Outage!.Seconds:0.#} s under the same load (`--outage`)").AppendLine();
            MarkdownTable.Append(md, FollowOutageColumns.All, outages);
            MarkdownTable.AppendLegends(md, FollowOutageColumns.All);
        }
    }
}
