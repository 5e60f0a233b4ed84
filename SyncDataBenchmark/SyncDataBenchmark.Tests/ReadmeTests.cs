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

    /// <summary>README and every docs page: a block may sit on any of them, its record's folder relative to the page.</summary>
    public static TheoryData<string> Pages() => new([
        "README.md", .. Directory.GetFiles(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "docs"), "*.md").Select(p => Path.Combine("docs", Path.GetFileName(p))).Order()]);

    [Fact]
    public async Task The_readme_shows_the_full_runs_verdict_and_the_results_page_its_headline_table()
    {
        var blocks = ReadmeBlocks.Read(await File.ReadAllTextAsync(Readme));
        var results = ReadmeBlocks.Read(await File.ReadAllTextAsync(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "docs", "results.md")));

        Assert.Contains(blocks, b => b is { Name: ReadmeBlocks.VerdictBlock, Folder: "artifacts" });
        Assert.Contains(results, b => b is { Name: ReadmeBlocks.HeadlineBlock, Folder: "../artifacts" });
    }

    /// <summary>Issue 66: a README a team reads in five minutes; the rest is in docs/.</summary>
    [Fact]
    public async Task The_readme_is_at_most_160_lines()
    {
        Assert.InRange((await File.ReadAllLinesAsync(Readme)).Length, 1, 160);
    }

    [Theory]
    [MemberData(nameof(Pages))]
    public async Task Every_generated_block_of_a_page_is_what_its_record_renders(string page)
    {
        var path = Path.Combine(SyncData.Harness.Lab.RepositoryRoot, page);
        foreach (var (name, folder, text) in ReadmeBlocks.Read(await File.ReadAllTextAsync(path)))
        {
            var record = await ResultsFile.ReadAsync(Path.Combine(Path.GetDirectoryName(path)!, folder, ResultsFile.FileName));
            // The fix when this fails: ./bench.sh --readme PAGE (after the report's code or the record changed).
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
