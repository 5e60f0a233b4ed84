using System.Text;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>results.md's "Keeping a copy fresh" section: one row per --follow run, from the record alone.</summary>
public static class FollowTable
{
    public const string Title = "Keeping a copy fresh";

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
        MarkdownTable.Append(md, FollowColumns.All, runs);
        MarkdownTable.AppendLegends(md, FollowColumns.All);
        if (runs.Any(r => r.Stages is not null))
        {
            // Only records made since the stages were measured have them: an older record renders as it always did.
            md.AppendLine().AppendLine($"### {StagesTitle}").AppendLine();
            MarkdownTable.Append(md, FollowColumns.Stages, runs);
            MarkdownTable.AppendLegends(md, FollowColumns.Stages);
        }
    }
}
