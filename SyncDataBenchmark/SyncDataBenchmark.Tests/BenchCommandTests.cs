using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The benchmark command end to end: the built runner as its own process, starting its own PostgreSQL and services,
/// running every combination and peer on a few thousand rows, and writing every output.
/// </summary>
[Trait("Tier", "Engine")]
public sealed class BenchCommandTests
{
    private const long Rows = 3_001;

    private static readonly string[] PeerKeys = ["psql-binary", "psql-text", "pgcopydb", "postgres-fdw", "logical-replication", "psql-binary-tuned"];
    private static readonly byte[] PngSignature = [0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A];

    private static string RunnerAssembly =>
        Lab.BuiltAssembly("SyncDataBenchmark.Runner");

    [Fact]
    public async Task Bench_runs_every_combination_and_peer_verified_and_writes_json_csv_markdown_and_pictures()
    {
        var output = Directory.CreateTempSubdirectory("syncdata-bench-test-");
        try
        {
            // One timed run and one warm-up each (--max-repeat, --max-warmup): the statistics' own rules are the fast tier's (BenchPlanTests, VerdictTests).
            // --jit-threshold-ms at its most: a timed run still compiling would be replaced by one more, and whether one is depends on the machine's load.
            var (exitCode, console) = await RunAsync(["--rows", Rows.ToString(System.Globalization.CultureInfo.InvariantCulture), "--repeat", "1", "--max-repeat", "1", "--max-warmup", "1", "--jit-threshold-ms", "100000", "--seed", "5", "--out", output.FullName,
                // A second profile for one case: the services restart under it, its runs and the comparison table appear.
                "--profile", "default,tuned", "--profile-cases", "NpgsqlCopy:NpgsqlCopy"]);
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");

            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json")));
            var report = json.RootElement;
            Assert.True(report.GetProperty("complete").GetBoolean());
            Assert.True(report.GetProperty("passed").GetBoolean());
            Assert.Equal(Rows, report.GetProperty("parameters").GetProperty("rows").GetInt64());
            var environment = report.GetProperty("environment");
            // Whatever PostgreSQL and packages this machine has: recorded, not prescribed.
            Assert.Matches(@"^\d+(\.\d+)?", environment.GetProperty("postgresVersion").GetString());
            Assert.Equal(PinnedVersion("Npgsql"), environment.GetProperty("nuGetPackages").GetProperty("Npgsql").GetString());
            Assert.Equal(PinnedProperty("EFCoreBulkExtensionsPostgreSqlVersion"), environment.GetProperty("nuGetPackages").GetProperty("EFCore.BulkExtensions.PostgreSql").GetString());
            Assert.True(environment.GetProperty("cores").GetInt32() > 0);

            Assert.Equal(CaseNumbers.Approaches.RunnableCombinations.Order(), CaseNumbers.Runnable.Select(c => (c.Fetch, c.Insert)).Order());
            // Without --changed every run fills an emptied target: the merge writers (and the change fetches) run only with it (ChangedBenchCommandTests).
            var combinations = CaseNumbers.Runnable.Where(c => !c.Merges).ToList();
            var runs = report.GetProperty("runs").EnumerateArray().ToList();
            // The record holds the runs; the tables are derived from them (ReportTables), never stored beside them.
            Assert.False(report.TryGetProperty("summary", out _));
            var tables = ReportTables.Of(await ResultsFile.ReadAsync(Path.Combine(output.FullName, ResultsFile.FileName)));
            var markdown = await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.md"));
            Assert.Contains("| TestCase | Rank | FetchApproach | InsertApproach | Process Time (median) | Ratio to psql binary (median/median) | Runs |", markdown);
            Assert.Equal(5, report.GetProperty("parameters").GetProperty("seed").GetInt32());
            Assert.Contains("Seed 5 (--seed 5 repeats this order)", console);
            Assert.Contains("## What to pick (computed)", markdown);
            Assert.Contains("per-run medians", markdown);
            foreach (var (n, fetch, insert) in combinations)
            {
                var ofCase = runs.Where(r => r.GetProperty("case").GetString() == $"{fetch}:{insert}" && r.GetProperty("profile").GetString() == "default").ToList();
                // One warm-up and one timed run, both as SomeService returned them.
                Assert.Equal([true, false], ofCase.Select(r => r.GetProperty("warmup").GetBoolean()));
                var pictured = tables.Summary.Single(c => c.Case == $"{fetch}:{insert}" && c.MainProfile).PictureRunId?.ToString();
                foreach (var run in ofCase)
                {
                    var result = run.GetProperty("result");
                    Assert.Equal(RunStatus.Succeeded, result.GetProperty("status").GetString());
                    Assert.True(result.GetProperty("verified").GetBoolean());
                    Assert.True(run.GetProperty("runnerVerified").GetBoolean());
                    Assert.Equal(Rows, result.GetProperty("rows").GetInt64());
                    // The default profile, as both services report it: Server GC with DATAS.
                    Assert.True(result.GetProperty("someService").GetProperty("runtime").GetProperty("datas").GetBoolean());
                    Assert.True(result.GetProperty("syncDataSource").GetProperty("runtime").GetProperty("datas").GetBoolean());
                    AssertAllocationHonest(result.GetProperty("someService"));
                    AssertAllocationHonest(result.GetProperty("syncDataSource"));
                    // Samples only for the run the picture shows: results.json stays small.
                    var hasSamples = result.GetProperty("id").GetString() == pictured;
                    foreach (var service in new[] { "someService", "syncDataSource" })
                    {
                        var samples = result.GetProperty(service).GetProperty("samples");
                        Assert.Equal(hasSamples, samples.ValueKind == JsonValueKind.Array && samples.GetArrayLength() > 0);
                    }
                }

                Assert.All(ofCase, r => Assert.Equal(n, r.GetProperty("number").GetInt32()));
                Assert.Contains($"| [{n}]({n}.png) | ", markdown);
                Assert.Contains($"| {fetch} | {insert} |", markdown);
                await AssertPngAsync(Path.Combine(output.FullName, $"{n}.png"));
            }

            var tuned = runs.Where(r => r.GetProperty("profile").GetString() == "tuned").ToList();
            Assert.Equal(2, tuned.Count);
            Assert.All(tuned, r =>
            {
                Assert.Equal("NpgsqlCopy:NpgsqlCopy", r.GetProperty("case").GetString());
                var runtime = r.GetProperty("result").GetProperty("someService").GetProperty("runtime");
                Assert.False(runtime.GetProperty("datas").GetBoolean());
                Assert.Equal(8L << 20, runtime.GetProperty("gen0MaxBudgetBytes").GetInt64());
                Assert.Equal(0, runtime.GetProperty("threadPoolSpinLimit").GetInt32());
                Assert.True(r.GetProperty("result").GetProperty("someService").GetProperty("allocatedBytes").GetInt64() > 0);
            });
            Assert.Contains("## Runtime profiles", markdown);
            Assert.Contains("| tuned |", markdown);
            await AssertPngAsync(Path.Combine(output.FullName, "profiles.png"));
            await AssertPngAsync(Path.Combine(output.FullName, $"{CaseNumbers.Numbers[(new FetchApproach("NpgsqlCopy"), new InsertApproach("NpgsqlCopy"))]}-tuned.png"));

            Assert.Equal(combinations.Count * 2 + tuned.Count, runs.Count);

            // Every compatible combination ran: nothing is reported without having been measured.
            Assert.False(report.TryGetProperty("blocked", out _));
            Assert.DoesNotContain("blocked", markdown, StringComparison.OrdinalIgnoreCase);

            var peers = report.GetProperty("peers").EnumerateArray().ToList();
            foreach (var key in PeerKeys)
            {
                var ofPeer = peers.Where(p => p.GetProperty("peer").GetString() == key).ToList();
                Assert.Equal(2, ofPeer.Count);
                Assert.All(ofPeer, p =>
                {
                    Assert.True(p.GetProperty("verified").GetBoolean(), p.GetProperty("error").ToString());
                    Assert.Equal(Rows, p.GetProperty("rows").GetInt64());
                    // Every peer run says which time its durationMs is.
                    Assert.Equal(key == "pgcopydb" ? "whole-command" : "target-statements", p.GetProperty("scope").GetString());
                    Assert.True(p.GetProperty("wallMs").GetDouble() >= p.GetProperty("durationMs").GetDouble());
                });
            }

            Assert.Equal(PeerKeys.Length * 2, peers.Count);
            foreach (var name in new[] { "psql binary pipe", "psql text pipe", "psql truncate, then pgcopydb copy table-data", "postgres_fdw pull",
                         "logical replication initial sync", "psql binary pipe, tuned" })
            {
                Assert.Contains($"| peer: {name} |", markdown);
            }

            // The psql binary pipe is its own yardstick, at its own scope; pgcopydb is compared with its whole command.
            var pipeLine = markdown.Split('\n').Single(l => l.StartsWith("| peer: psql binary pipe |", StringComparison.Ordinal));
            Assert.Contains("| 1.00× | 1 (max) |", pipeLine);
            Assert.Contains("| target statements (whole command ", pipeLine);
            Assert.EndsWith("| whole command | — | — |", markdown.Split('\n').Single(l => l.StartsWith("| peer: psql truncate, then pgcopydb", StringComparison.Ordinal)));
            Assert.Contains("wal_level=logical", markdown);

            await AssertPngAsync(Path.Combine(output.FullName, "summary.png"));

            var csv = await File.ReadAllLinesAsync(Path.Combine(output.FullName, "results.csv"));
            Assert.StartsWith("Kind,Case,Profile,Number,Fetch,Insert,Compression,Table,Round,Warmup,SourceRows,Status,Verified,Rows,DurationMs", csv[0]);
            // Without --table every run and peer run moved users, and says so.
            Assert.All(runs.Concat(peers), r => Assert.Equal("users", r.GetProperty("table").GetString()));
            Assert.Equal(1 + runs.Count + peers.Count, csv.Length);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    /// <summary>
    /// A sweep of two tiny sizes, one fast case: each size seeded and measured, each run keeping its size, the growth
    /// section fitted on both sizes, and the growth table and picture written.
    /// </summary>
    [Fact]
    public async Task A_sweep_measures_each_size_and_writes_the_growth_section()
    {
        var output = Directory.CreateTempSubdirectory("syncdata-bench-sweep-");
        try
        {
            var (exitCode, console) = await RunAsync(["--rows", "600,300", "--repeat", "1", "--max-repeat", "1", "--warmup", "2", "--max-warmup", "2", "--jit-threshold-ms", "100000", "--peers", "psql-binary", "--profile", "default",
                "--cases", "NpgsqlCopy:NpgsqlCopy", "--out", output.FullName]);
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");
            Assert.Contains("Seeding 600 rows", console);

            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json")));
            var report = json.RootElement;
            var parameters = report.GetProperty("parameters");
            Assert.Equal([300L, 600L], parameters.GetProperty("sizes").EnumerateArray().Select(e => e.GetInt64()));
            Assert.Equal(600, parameters.GetProperty("rows").GetInt64());
            var runs = report.GetProperty("runs").EnumerateArray().ToList();
            // --warmup 2, at the first size only: 300 (two warm-ups, timed), 600 (timed).
            Assert.Equal(2, parameters.GetProperty("warmups").GetInt32());
            Assert.Equal([(300L, true), (300L, true), (300L, false), (600L, false)],
                runs.Select(r => (r.GetProperty("sourceRows").GetInt64(), r.GetProperty("warmup").GetBoolean())));
            // The services were started for this bench: their first run compiled code, and says so.
            foreach (var service in new[] { "someService", "syncDataSource" })
            {
                var first = runs[0].GetProperty("result").GetProperty(service);
                Assert.True(first.GetProperty("jitMethods").GetInt64() > 0, $"{service}'s first run reports no JIT work: {first}");
                Assert.True(first.GetProperty("jitTimeMs").GetDouble() > 0, $"{service}'s first run reports no JIT time: {first}");
            }

            Assert.All(runs, r => Assert.Equal(r.GetProperty("sourceRows").GetInt64(), r.GetProperty("result").GetProperty("rows").GetInt64()));
            // The record proves each run: the target before it (the sentinel row alone), unlike the source and the target after.
            Assert.All(runs, r =>
            {
                Assert.Equal(1, r.GetProperty("targetBefore").GetProperty("rows").GetInt64());
                Assert.NotEqual(r.GetProperty("targetBefore").ToString(), r.GetProperty("runnerTarget").ToString());
                Assert.Equal(r.GetProperty("runnerTarget").ToString(), r.GetProperty("result").GetProperty("source").ToString());
            });
            // --peers psql-binary: that peer alone, at each size (warm-up at the first only), and nothing else.
            var peers = report.GetProperty("peers").EnumerateArray().ToList();
            Assert.Equal([(300L, true), (300L, true), (300L, false), (600L, false)],
                peers.Select(p => (p.GetProperty("sourceRows").GetInt64(), p.GetProperty("warmup").GetBoolean())));
            Assert.All(peers, p => Assert.Equal(PeerDefinition.PsqlBinaryKey, p.GetProperty("peer").GetString()));
            Assert.All(peers, p => Assert.NotEqual(p.GetProperty("targetBefore").ToString(), p.GetProperty("target").ToString()));

            // The case's growth and the one peer's.
            var growths = ReportTables.Of(await ResultsFile.ReadAsync(Path.Combine(output.FullName, ResultsFile.FileName))).Growth;
            Assert.Equal(["NpgsqlCopy:NpgsqlCopy", PeerDefinition.PsqlBinaryKey], growths.Select(g => g.Case));
            var growth = growths[0];
            Assert.Equal([300L, 600L], growth.Points.Select(p => p.Rows));
            Assert.Equal(2, growth.Time!.Points);
            Assert.Equal(2, growth.SomeServiceWorkingSet!.Points);

            var markdown = await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.md"));
            Assert.Contains("## How cost grows with rows", markdown);
            Assert.Contains("k time", console);
            await AssertPngAsync(Path.Combine(output.FullName, "growth.png"));
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData("--cases", "EFStreem:*", "'EFStreem' in 'EFStreem:*' is not a fetch approach")]
    [InlineData("--cases", "EFStream:NpgsqlCopyRaw", "EFStream:NpgsqlCopyRaw cannot run")]
    [InlineData("--someservice-url", "http://127.0.0.1:1", "need --connection")]
    [InlineData("--profile", "tunned", "--profile: 'tunned' is not valid: one or more of default, workstation, tuned")]
    [InlineData("--bogus", "x", "'--bogus' is not an option of this command. Valid options: --help, --version, --rows,")]
    [InlineData("--budget", "30s", "--budget: '30s' is not valid: a duration from 60 s to 48 h")]
    public async Task Options_that_cannot_go_together_are_refused_before_anything_starts(string option, string value, string message)
    {
        var output = Path.Combine(Path.GetTempPath(), "syncdata-bench-refused-" + Path.GetRandomFileName());
        var (exitCode, console) = await RunAsync([option, value, "--out", output]);

        Assert.Equal(1, exitCode);
        Assert.Contains(message, console);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Peers_and_no_peers_together_are_refused_before_anything_starts()
    {
        var output = Path.Combine(Path.GetTempPath(), "syncdata-bench-refused-" + Path.GetRandomFileName());
        var (exitCode, console) = await RunAsync(["--peers", "psql-binary", "--no-peers", "--out", output]);

        Assert.Equal(1, exitCode);
        Assert.Contains("--peers and --no-peers contradict each other", console);
        Assert.False(Directory.Exists(output));
    }

    [Fact]
    public async Task Report_from_writes_the_reports_again_from_a_record_and_leaves_the_record_as_measured()
    {
        var directory = Directory.CreateTempSubdirectory("syncdata-report-from-");
        try
        {
            var record = Path.Combine(directory.FullName, ResultsFile.FileName);
            File.Copy(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", "floor-warm", ResultsFile.FileName), record);
            var before = await File.ReadAllBytesAsync(record);

            var (exitCode, console) = await RunAsync(["--report-from", directory.FullName, "--no-charts"]);

            Assert.True(exitCode == 0, console);
            var markdown = await File.ReadAllTextAsync(Path.Combine(directory.FullName, "results.md"));
            Assert.Contains("## Against the psql pipes, at every size", markdown);
            Assert.Contains("### Against psql binary pipe, tuned", markdown);
            Assert.True(File.Exists(Path.Combine(directory.FullName, "results.csv")));
            Assert.Equal(before, await File.ReadAllBytesAsync(record));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task Report_from_with_an_option_it_would_ignore_is_refused()
    {
        var (exitCode, console) = await RunAsync(["--report-from", Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", "floor-warm"), "--rows", "1000"]);

        Assert.Equal(1, exitCode);
        Assert.Contains("--report-from and --readme only write reports again from records and run nothing: --rows would be ignored", console);
    }

    [Fact]
    public async Task Readme_renders_a_pages_blocks_again_from_their_records_and_leaves_the_rest()
    {
        var directory = Directory.CreateTempSubdirectory("syncdata-readme-");
        try
        {
            Directory.CreateDirectory(Path.Combine(directory.FullName, "run"));
            File.Copy(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", ResultsFile.FileName), Path.Combine(directory.FullName, "run", ResultsFile.FileName));
            var page = Path.Combine(directory.FullName, "PAGE.md");
            await File.WriteAllTextAsync(page, "Before.\n<!-- generated: headline of run -->stale<!-- end: headline of run -->\nAfter.\n");

            var (exitCode, console) = await RunAsync(["--readme", page]);

            Assert.True(exitCode == 0, console);
            var text = await File.ReadAllTextAsync(page);
            Assert.StartsWith("Before.\n<!-- generated: headline of run -->", text, StringComparison.Ordinal);
            Assert.EndsWith("<!-- end: headline of run -->\nAfter.\n", text, StringComparison.Ordinal);
            Assert.DoesNotContain("stale", text, StringComparison.Ordinal);
            Assert.Contains("](run/9.png) |", text, StringComparison.Ordinal);

            await File.WriteAllTextAsync(page, "No block here.\n");
            (exitCode, console) = await RunAsync(["--readme", page]);
            Assert.Equal(BenchCommand.SetupFailed, exitCode);
            Assert.Contains("marks no block to render", console);
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    /// <summary>(option, bad value, what the one line must say is accepted). {file} is an existing regular file.</summary>
    public static TheoryData<string, string, string> BadValues() => new()
    {
        { "--rows", "abc", "a whole number from 1 to 2,147,483,647" },
        { "--rows", "", "a whole number from 1 to 2,147,483,647" },
        { "--rows", "0", "a whole number from 1 to 2,147,483,647" },
        { "--rows", "2147483648", "a whole number from 1 to 2,147,483,647" },
        { "--rows", "1e3", "a whole number from 1 to 2,147,483,647" },
        { "--rows", "20000,20000", "each named once" },
        { "--max-run-seconds", "0", "a whole number from 1 to 1,000,000" },
        { "--max-run-seconds", "ten", "a whole number from 1 to 1,000,000" },
        { "--rows", "1.5", "a whole number from 1 to 2,147,483,647" },
        { "--repeat", "x", "a whole number from 1 to 1,000" },
        { "--repeat", "0", "a whole number from 1 to 1,000" },
        { "--repeat", "1001", "a whole number from 1 to 1,000" },
        { "--repeat", "", "a whole number from 1 to 1,000" },
        { "--page-size", "-1", "a whole number from 1 to 10,000" },
        { "--page-size", "0", "a whole number from 1 to 10,000" },
        { "--page-size", "10001", "a whole number from 1 to 10,000" },
        { "--page-size", "ten", "a whole number from 1 to 10,000" },
        { "--batch-size", "1e3", "a whole number from 1 to 100,000" },
        { "--batch-size", "100001", "a whole number from 1 to 100,000" },
        { "--batch-size", "", "a whole number from 1 to 100,000" },
        { "--out", "/proc/forbidden", "a directory that exists or can be created, and is writable" },
        { "--out", "{file}/results", "a directory that exists or can be created, and is writable" },
        { "--out", "{file}", "a directory that exists or can be created, and is writable" },
        { "--out", "", "a directory that exists or can be created, and is writable" },
        { "--cases", "", "Fetch:Insert patterns" },
        { "--cases", "NpgsqlCopy", "use Fetch:Insert" },
        { "--connection", "", "an Npgsql connection string" },
        { "--connection", "Host", "an Npgsql connection string" },
        { "--source-url", "not a url", "an absolute http(s) URL" },
        { "--someservice-url", "ftp://127.0.0.1/", "an absolute http(s) URL" },
        { "--no-peers", "maybe", "maybe" },
        { "--link", "2mbit", "one or more of loopback, 10gbit, 1gbit, 100mbit" },
        { "--link", "", "one or more of loopback, 10gbit, 1gbit, 100mbit" },
        { "--warmup", "0", "a whole number from 1 to 1,000" },
        { "--max-repeat", "0", "a whole number from 1 to 1,000" },
        { "--ci-width", "101%", "a share above 0 and at most 100%" },
        { "--case-budget", "ten", "a whole number from 1 to 1,000,000" },
        { "--jit-threshold-ms", "0", "a whole number from 1 to 100,000" },
        { "--seed", "x", "a whole number from 0 to 2,147,483,647" },
        { "--peers", "psql", "one or more of psql-binary, psql-text, pgcopydb, postgres-fdw, logical-replication, psql-binary-tuned" },
        { "--report-from", "{file}", "a directory that exists or can be created, and is writable" },
        { "--report-from", "{file}.none", "give the --out directory of an earlier run" },
        { "--readme", "{file}.none", "is not a file: give the page whose generated blocks to render again" },
    };

    /// <summary>
    /// Each bad value: exit code 1 (README, "The benchmark command"), exactly one line naming the option, the value
    /// and what is accepted, no stack trace, and nothing created.
    /// </summary>
    [Theory]
    [MemberData(nameof(BadValues))]
    public async Task A_bad_value_is_one_line_naming_option_value_and_what_is_accepted(string option, string value, string accepted)
    {
        var file = Path.GetTempFileName();
        var output = Path.Combine(Path.GetTempPath(), "syncdata-bench-refused-" + Path.GetRandomFileName());
        try
        {
            value = value.Replace("{file}", file, StringComparison.Ordinal);
            var arguments = option == "--out" ? new[] { option, value } : [option, value, "--out", output];
            var (exitCode, console) = await RunAsync(arguments);

            var lines = console.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            Assert.True(exitCode == 1, $"exit code {exitCode}:\n{console}");
            var line = Assert.Single(lines);
            Assert.Contains(accepted, line);
            Assert.Contains($"'{value}'", line);
            if (option != "--no-peers")
            {
                Assert.StartsWith(option + ":", line);
            }

            Assert.False(Directory.Exists(output));
        }
        finally
        {
            File.Delete(file);
        }
    }

    /// <summary>The version Directory.Packages.props pins: the report must record what ran, whatever that is.</summary>
    private static string PinnedVersion(string package) =>
        PackagesProps().Descendants("PackageVersion").Single(p => (string?)p.Attribute("Include") == package).Attribute("Version")!.Value;

    /// <summary>A version Directory.Packages.props keeps as a property (packages fetched with PackageDownload).</summary>
    private static string PinnedProperty(string name) => PackagesProps().Descendants(name).Single().Value;

    private static System.Xml.Linq.XDocument PackagesProps() =>
        System.Xml.Linq.XDocument.Load(Path.Combine(Lab.RepositoryRoot, "SyncDataBenchmark", "Directory.Packages.props"));

    /// <summary>A figure or a reason, never both, never neither, never negative.</summary>
    private static void AssertAllocationHonest(JsonElement figures)
    {
        var allocated = figures.GetProperty("allocatedBytes");
        var reason = figures.GetProperty("allocatedBytesUnavailable");
        if (allocated.ValueKind == JsonValueKind.Null)
        {
            Assert.Contains("DATAS", reason.GetString());
        }
        else
        {
            Assert.True(allocated.GetInt64() >= 0);
            Assert.Equal(JsonValueKind.Null, reason.ValueKind);
        }
    }

    private static async Task AssertPngAsync(string path)
    {
        Assert.True(File.Exists(path), $"{path} was not written");
        var bytes = await File.ReadAllBytesAsync(path);
        Assert.True(bytes.Length > 1000, $"{path} is only {bytes.Length} bytes");
        Assert.Equal(PngSignature, bytes[..PngSignature.Length]);
    }

    /// <summary>The built runner as its own process; stopped with SIGTERM (then it stops its services and cluster) after 4 minutes.</summary>
    internal static async Task<(int ExitCode, string Output)> RunAsync(IReadOnlyList<string> arguments)
    {
        Assert.True(File.Exists(RunnerAssembly), $"The runner is not built: {RunnerAssembly}");
        await using var process = ChildProcess.Start("dotnet", [RunnerAssembly, .. arguments], new ChildProcessOptions { KeepAllOutput = true });
        // 13 combinations and 6 peers, twice each, on a shared 2-core machine.
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(4));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            // SIGTERM first: the runner then stops its services and its cluster.
            await process.SignalAsync("TERM");
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            await process.WaitForExitAsync(grace.Token);
            Assert.Fail($"The runner did not finish within 4 minutes:\n{process.StandardOutput}\n{process.StandardError}");
        }

        return (process.ExitCode, process.StandardOutput + process.StandardError);
    }
}
