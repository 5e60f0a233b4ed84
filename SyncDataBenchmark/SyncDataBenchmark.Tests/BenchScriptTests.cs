using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>./bench.sh itself: what a new user sees before the runner answers. Not the fast tier: it builds.</summary>
[Trait("Tier", "Engine")]
public sealed class BenchScriptTests
{
    /// <summary>
    /// The options are declared once, in the runner, so even --help waits for the build: bench.sh says so, and how
    /// long, before the wait (the first build takes about a minute on 2 cores); then the runner's help follows.
    /// </summary>
    [Fact]
    public async Task Help_says_first_that_it_builds_the_runner_and_how_long_then_prints_the_runners_help()
    {
        var options = new ChildProcessOptions { WorkingDirectory = Lab.RepositoryRoot, KeepAllOutput = true };

        var result = await ChildProcess.RunAsync("bash", ["bench.sh", "--help"], options, TimeSpan.FromMinutes(10));

        Assert.True(result.ExitCode == 0, result.StandardOutput + result.StandardError);
        var lines = result.StandardOutput.Split('\n');
        var building = Array.FindIndex(lines, l => l.StartsWith("Building ", StringComparison.Ordinal));
        Assert.True(building >= 0, result.StandardOutput);
        Assert.Contains("--help too", lines[building], StringComparison.Ordinal);
        Assert.Contains("about a minute the first time", lines[building], StringComparison.Ordinal);
        Assert.True(Array.FindIndex(lines, l => l.StartsWith("Usage:", StringComparison.Ordinal)) > building, result.StandardOutput);
        Assert.Contains("--rows", result.StandardOutput, StringComparison.Ordinal);
        Assert.DoesNotContain("[--]", result.StandardOutput, StringComparison.Ordinal);
    }
}
