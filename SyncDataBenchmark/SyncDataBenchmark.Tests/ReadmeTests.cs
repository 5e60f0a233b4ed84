using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: README's verdict and headline table are rendered from the committed records (ReadmeBlocks), never
/// written by hand: each block is what its record renders now, and the full run's verdict and table are there.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ReadmeTests
{
    private static readonly string Readme = Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "README.md");

    [Fact]
    public async Task Every_generated_block_of_the_readme_is_what_its_record_renders()
    {
        var blocks = ReadmeBlocks.Read(await File.ReadAllTextAsync(Readme));

        Assert.Contains(blocks, b => b is { Name: ReadmeBlocks.VerdictBlock, Folder: "artifacts" });
        Assert.Contains(blocks, b => b is { Name: ReadmeBlocks.HeadlineBlock, Folder: "artifacts" });
        foreach (var (name, folder, text) in blocks)
        {
            var record = await ResultsFile.ReadAsync(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, folder, ResultsFile.FileName));
            // The fix when this fails: ./bench.sh --readme README.md (after the report's code or the record changed).
            Assert.Equal(ReadmeBlocks.Render(name, folder, ReportTables.Of(record)), text);
        }
    }

    [Fact]
    public async Task Rewriting_a_page_changes_its_blocks_and_nothing_around_them()
    {
        var tables = ReportTables.Of(await ResultsFile.ReadAsync(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", ResultsFile.FileName)));
        const string page = "# Title\n\nHand-written.\n\n<!-- generated: verdict of there -->\nstale | 1 |\n<!-- end: verdict of there -->\n\nTail.\n";

        var rewritten = ReadmeBlocks.Rewrite(page, folder => folder == "there" ? tables : throw new InvalidOperationException(folder));

        Assert.StartsWith("# Title\n\nHand-written.\n\n<!-- generated: verdict of there -->", rewritten, StringComparison.Ordinal);
        Assert.EndsWith("<!-- end: verdict of there -->\n\nTail.\n", rewritten, StringComparison.Ordinal);
        Assert.DoesNotContain("stale", rewritten, StringComparison.Ordinal);
        Assert.Equal(ReadmeBlocks.Render(ReadmeBlocks.VerdictBlock, "there", tables), ReadmeBlocks.Read(rewritten).Single().Text);
        Assert.Contains("| Situation | Use | Not told apart from it | Runner-up |", rewritten, StringComparison.Ordinal);
    }

    [Fact]
    public void A_page_with_no_block_is_refused_with_how_to_mark_one()
    {
        var error = Assert.Throws<InvalidOperationException>(() => ReadmeBlocks.Rewrite("# Nothing generated here\n", _ => throw new InvalidOperationException("not read")));

        Assert.Contains("<!-- generated: verdict of FOLDER -->", error.Message, StringComparison.Ordinal);
    }
}
