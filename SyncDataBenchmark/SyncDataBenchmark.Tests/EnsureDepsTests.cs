using System.Text.RegularExpressions;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Packages installed by what the chosen run needs (issue 62: `bench.sh --help` as root installed podman, chromium, runc,
/// … and ran an npm install, 2 min 18 s, before printing help): the groups each bench.sh invocation asks
/// scripts/ensure-deps.sh for, and docs/running.md listing every package of every group. Runs the scripts, installs nothing.
/// </summary>
[Trait("Tier", "Lab")]
public sealed partial class EnsureDepsTests
{
    public static TheoryData<string, string> Invocations => new()
    {
        { "--help", "" },
        { "-h", "" },
        { "--readme README.md", "" },
        { "--report-from artifacts", "charts" },
        { "--report-from artifacts --no-charts", "" },
        { "", "postgres peers charts" },
        { "--rows 1000 --no-peers", "postgres charts" },
        { "--no-peers --no-charts", "postgres" },
        { "--follow 30s --write-rate 100", "postgres" },
        { "--source-connection Host=x --table public.t", "postgres charts" },
        { "--link 100mbit", "postgres peers charts network" },
    };

    [Theory]
    [MemberData(nameof(Invocations))]
    public async Task Bench_asks_only_for_the_package_groups_its_options_need(string arguments, string groups)
    {
        var result = await ScriptAsync("bench-deps.sh", arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries));
        Assert.Equal(groups, string.Join(' ', result.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
    }

    [Fact]
    public async Task Running_md_lists_every_package_of_every_group()
    {
        var listed = (await ScriptAsync("ensure-deps.sh", ["--list"])).Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => l.Split(' ')).ToList();
        Assert.Contains(listed, l => l[1] == "chromium");
        Assert.Contains(listed, l => l[1] == "npm");
        var page = await File.ReadAllTextAsync(Path.Combine(Lab.RepositoryRoot, "docs", "running.md"));
        foreach (var group in listed.GroupBy(l => l[0]))
        {
            var row = GroupRow().Matches(page).SingleOrDefault(m => m.Groups[1].Value == group.Key);
            Assert.True(row is not null, $"docs/running.md has no row for the group {group.Key}");
            Assert.All(group, l => Assert.Contains($"`{l[1]}`", row!.Groups[2].Value, StringComparison.Ordinal));
        }
    }

    private static async Task<string> ScriptAsync(string script, string[] arguments)
    {
        var result = await ChildProcess.RunAsync("bash", [Path.Combine(Lab.RepositoryRoot, "scripts", script), .. arguments],
            new ChildProcessOptions { KeepAllOutput = true }, TimeSpan.FromMinutes(1));
        Assert.True(result.ExitCode == 0, result.StandardError);
        return result.StandardOutput;
    }

    /// <summary>A row of running.md's package table: | group | packages | needed by |.</summary>
    [GeneratedRegex(@"^\| ([a-z]+) \| (.+?) \| .+ \|$", RegexOptions.Multiline)]
    private static partial Regex GroupRow();
}
