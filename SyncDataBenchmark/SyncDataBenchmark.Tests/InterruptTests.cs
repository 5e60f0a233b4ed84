using System.Text.Json;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Ctrl-C as a terminal sends it: SIGINT to the runner's whole process group (the runner leads its own: ChildProcess
/// starts every program in a session of its own), in each mode, at the moment a user would press it. Every time the
/// runner exits 130 saying so, the record (when anything was measured) says it is incomplete, and nothing is left:
/// no process of the runner's, no cluster, no slot, publication or subscription, no half-written seed.
/// </summary>
[Trait("Tier", "Lab")]
public sealed class InterruptTests
{
    private static readonly string[] Follow = ["--follow", "60s", "--write-rate", "50", "--rows", "1000"];

    /// <summary>
    /// When to press Ctrl-C, the mode, what the runner must say, and whether it starts with SIGINT ignored, as a script's
    /// background job does (.NET then never sees it: the runner restores it, CtrlC).
    /// </summary>
    public static TheoryData<string, string[], string, bool> Modes => new()
    {
        // While the source is seeded (5,000,000 rows take tens of seconds here).
        { "Seeding ", ["--rows", "5000000", "--cases", "NpgsqlCopy:NpgsqlCopy", "--no-peers"], "Interrupted before any run", false },
        // During the first timed or warm-up run of a copy.
        { "[1/", ["--rows", "20000", "--cases", "NpgsqlCopy:NpgsqlCopy", "--no-peers", "--repeat", "20", "--max-repeat", "20", "--ci-width", "0.001"], "Stopped: writing what was measured so far.", false },
        // While pgbench writes and NpgsqlReplication's slot is in use.
        { "following; pgbench", Follow, "Stopped: writing what was measured so far.", false },
        { "following; pgbench", Follow, "Stopped: writing what was measured so far.", true },
    };

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Ctrl_C_to_the_process_group_stops_the_runner_with_130_and_leaves_nothing_behind(string when, string[] mode, string said, bool startedIgnoringCtrlC)
    {
        await using var postgres = await LocalPostgres.StartAsync(LabDatabases.LabPostgresSettings);
        var output = Directory.CreateTempSubdirectory("syncdata-interrupt-test-");
        try
        {
            string[] ignoring = startedIgnoringCtrlC ? ["bash", "-c", "trap '' INT; exec \"$@\"", "bash"] : [];
            string[] command = [.. ignoring, "dotnet", Lab.BuiltAssembly("SyncDataBenchmark.Runner"), .. mode, "--connection", postgres.ConnectionString("postgres"),
                "--table", "users", "--no-charts", "--out", output.FullName];
            await using var runner = ChildProcess.Start(command[0], command[1..], new ChildProcessOptions { KeepAllOutput = true });
            // Safety nets, not thresholds: a busy machine makes the start slow; a runner that ignores the signal runs on for minutes.
            using (var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5)))
            {
                while (!runner.StandardOutput.Contains(when, StringComparison.Ordinal))
                {
                    Assert.False(runner.HasExited, $"exited {(runner.HasExited ? runner.ExitCode : 0)} before '{when}':\n{runner.StandardOutput}{runner.StandardError}");
                    await Task.Delay(100, timeout.Token);
                }

                Assert.Equal(0, await runner.SignalGroupAsync("INT"));
            }

            using (var stop = new CancellationTokenSource(TimeSpan.FromSeconds(90)))
            {
                await runner.WaitForExitAsync(stop.Token);
            }

            var console = runner.StandardOutput + runner.StandardError;
            Assert.True(runner.ExitCode == 130, $"exit code {runner.ExitCode}:\n{console}");
            Assert.Contains(said, console, StringComparison.Ordinal);
            Assert.DoesNotContain("Unhandled exception", console, StringComparison.Ordinal);
            Assert.Equal("", LeftBy(runner.Id));
            Assert.Equal("", await LeftOnServerAsync(postgres));
            if (File.Exists(Path.Combine(output.FullName, "results.json")))
            {
                using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json")));
                Assert.False(json.RootElement.GetProperty("complete").GetBoolean());
            }
            else
            {
                // Nothing measured, nothing recorded; the seed was one transaction, rolled back.
                Assert.Equal("Seeding ", when);
                Assert.Equal(0L, (long)(await Lab.ScalarAsync(postgres.ConnectionString(Lab.SourceDatabase), "select count(*) from users"))!);
            }
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    /// <summary>What the runner <paramref name="pid"/> started and left: processes of its group or marked with it as owner, and its cluster directories; "" when none.</summary>
    private static string LeftBy(int pid)
    {
        var owner = $"{LabSweeper.OwnerVariable}={pid} ";
        var processes = Directory.GetDirectories("/proc").Select(Path.GetFileName).Where(p => p!.All(char.IsAsciiDigit)).Where(p =>
        {
            try
            {
                var stat = File.ReadAllText($"/proc/{p}/stat");
                var group = stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[2];
                return group == pid.ToString(System.Globalization.CultureInfo.InvariantCulture)
                       || File.ReadAllText($"/proc/{p}/environ").Split('\0').Any(v => v.StartsWith(owner, StringComparison.Ordinal));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return false;
            }
        }).Select(p => $"process {p}");
        var clusters = new[] { Path.GetTempPath(), LabDatabases.TmpfsDirectory }.SelectMany(parent => Directory.GetDirectories(parent, LabSweeper.ClusterPrefix + "*"))
            .Where(d => File.Exists(Path.Combine(d, LabSweeper.OwnerFile)) && File.ReadAllText(Path.Combine(d, LabSweeper.OwnerFile)).StartsWith($"{pid} ", StringComparison.Ordinal))
            .Select(d => $"cluster {d}");
        return string.Join(", ", processes.Concat(clusters));
    }

    /// <summary>Slots, publications, subscriptions, and users rows a stopped seed would have left; "" when none.</summary>
    private static async Task<string> LeftOnServerAsync(LocalPostgres postgres)
    {
        var source = postgres.ConnectionString(Lab.SourceDatabase);
        var found = new List<string>
        {
            (string)(await Lab.ScalarAsync(source, "select concat_ws(', ', (select string_agg('slot ' || slot_name, ', ') from pg_replication_slots), (select string_agg('publication ' || pubname, ', ') from pg_publication))"))!,
            (string)(await Lab.ScalarAsync(postgres.ConnectionString(Lab.TargetDatabase), "select coalesce(string_agg('subscription ' || subname, ', '), '') from pg_subscription"))!,
        };
        return string.Join(", ", found.Where(f => f.Length > 0));
    }
}
