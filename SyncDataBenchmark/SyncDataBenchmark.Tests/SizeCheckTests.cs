using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The size of a run estimated and checked against the free disk before the seed (issue 62): 2,147,483,647 rows of
/// orders (about a kilobyte a row, twice: source and target, terabytes) are refused with the figures before any row
/// is seeded; --no-size-check seeds anyway (stopped by Ctrl-C here, exit 130).
/// </summary>
[Trait("Tier", "Lab")]
public sealed class SizeCheckTests
{
    private static readonly string[] TooBig = ["--rows", "2147483647", "--table", "orders", "--cases", "NpgsqlCopy:NpgsqlCopy", "--no-peers", "--no-charts"];

    [Fact]
    public async Task A_seed_larger_than_the_free_disk_is_refused_with_the_figures_unless_overridden()
    {
        var output = Directory.CreateTempSubdirectory("syncdata-size-test-");
        try
        {
            var (refused, console) = await BenchCommandTests.RunAsync([.. TooBig, "--out", output.FullName]);
            // The console wraps a long line at its width.
            var why = System.Text.RegularExpressions.Regex.Replace(console, @" *\n *", " ");
            Assert.True(refused == 2, $"exit code {refused}:\n{why}");
            Assert.Matches(@"Size: 2,147,483,647 rows of orders: about [\d,.]+ [GT]?B in the source and as much in the target, plus up to [\d,.]+ [GM]B of WAL: ~[\d,.]+ GB of disk; seeding ~", why);
            Assert.Matches(@"only [\d,.]+ [GM]B free on /", why);
            Assert.Contains("Refused before seeding: give fewer --rows, or --no-size-check to seed anyway.", why, StringComparison.Ordinal);
            Assert.DoesNotContain("Seeding ", why, StringComparison.Ordinal);

            await using var runner = ChildProcess.Start("dotnet", [Lab.BuiltAssembly("SyncDataBenchmark.Runner"), .. TooBig, "--no-size-check", "--out", output.FullName],
                new ChildProcessOptions { KeepAllOutput = true });
            // A safety net, not a threshold: the cluster's start is slow on a busy machine.
            using (var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5)))
            {
                while (!runner.StandardOutput.Contains("Seeding 2,147,483,647 rows of orders", StringComparison.Ordinal))
                {
                    Assert.False(runner.HasExited, $"exited before seeding:\n{runner.StandardOutput}{runner.StandardError}");
                    await Task.Delay(100, timeout.Token);
                }
            }

            Assert.Contains("Seeding anyway (--no-size-check).", runner.StandardOutput, StringComparison.Ordinal);
            await runner.SignalGroupAsync("INT");
            using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(90));
            Assert.Equal(130, await runner.WaitForExitAsync(stop.Token));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}
