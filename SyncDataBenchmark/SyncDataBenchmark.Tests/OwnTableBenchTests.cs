using System.Text.Json;
using Npgsql;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The lab on a team's own table (docs/own-table.md), the runner as its own process: a database the lab did not
/// create, holding a table of a schema the code does not name (Fixtures/team-table.sql and 2,000 more rows), reached
/// through a role that may only SELECT it. Every approach that can carry the table runs and is verified by the runner
/// with the description's checksum over every column; the others are named before any run; and the team's database is
/// byte for byte what it was (pg_dump), with no slot, publication, relation, trigger or function added.
/// </summary>
[Trait("Tier", "Engine")]
public sealed class OwnTableBenchTests
{
    private const string Table = "\"Team Sales\".\"Order Lines\"";
    private const string Database = "team_books";

    private static string Fixture(string name) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", name));

    /// <param name="labConnection">The lab's own databases (source, target) on the team's server through --connection; else the runner's throwaway cluster.</param>
    /// <param name="role">The role the lab reads as: one that may only SELECT the table, or its owner (a superuser), whose writes only the lab's read-only connection stops.</param>
    [Theory]
    [InlineData(true, "team_reader")]
    [InlineData(false, "team_reader")]
    [InlineData(true, "postgres")]
    public async Task The_runner_verifies_every_approach_that_carries_a_teams_table_and_leaves_its_database_byte_identical(bool labConnection, string role)
    {
        await using var postgres = await LocalPostgres.StartAsync();
        await postgres.CreateDatabaseAsync(Database);
        var owner = postgres.ConnectionString(Database) + ";Pooling=false";
        foreach (var script in new[] { "team-table.sql", "team-table-rows.sql", "team-reader.sql" })
        {
            await Lab.ScalarAsync(owner, Fixture(script));
        }

        var before = await StateAsync(postgres, owner);
        var reader = new NpgsqlConnectionStringBuilder(postgres.ConnectionString(Database)) { Username = role }.ConnectionString;
        var output = Directory.CreateTempSubdirectory("syncdata-own-table-");
        try
        {
            string[] target = labConnection ? ["--connection", postgres.ConnectionString("postgres")] : [];
            // --jit-threshold-ms at its most: a timed run still compiling would be replaced by one more, and whether one
            // is depends on the machine's load (the count below is of one warm-up and one timed run a case).
            var (exitCode, console) = await BenchCommandTests.RunAsync(["--source-connection", reader, "--table", Table, .. target,
                "--rows", "10", "--repeat", "1", "--max-repeat", "1", "--max-warmup", "1", "--jit-threshold-ms", "100000", "--no-charts", "--out", output.FullName]);
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");
            AssertSaidBeforeAnyRun(console);
            await AssertRunsVerifiedAsync(output.FullName);
        }
        finally
        {
            output.Delete(recursive: true);
        }

        Assert.Equal(before, await StateAsync(postgres, owner));
    }

    private static void AssertSaidBeforeAnyRun(string console)
    {
        var firstRun = console.IndexOf("[1/", StringComparison.Ordinal);
        foreach (var said in new[]
                 {
                     "--rows does not apply to your own table", "leaves out foreign key", "EFStream × EFBulk",
                     "Not run on your table: NpgsqlCopy (Npgsql's binary importer) writes rows of a class generated from the table's catalog, and \"Team Sales\".\"Order Lines\"'s column \"words\" is tsvector",
                     "Not run on your table by the runner: NpgsqlCopy × NpgsqlCopyRawMerge: it merges into a populated target", "Not run on your table: the peers",
                     "each run guessed at", "Plan at ",
                 })
        {
            var at = console.IndexOf(said, StringComparison.Ordinal);
            Assert.True(at >= 0 && at < firstRun, $"'{said}' is not said before the first run:\n{console}");
        }
    }

    private static async Task AssertRunsVerifiedAsync(string output)
    {
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output, "results.json")));
        var report = json.RootElement;
        Assert.True(report.GetProperty("passed").GetBoolean());
        var runs = report.GetProperty("runs").EnumerateArray().ToList();
        // The case keys carry the table, as for orders: "NpgsqlCopy:NpgsqlCopyRaw[\"Team Sales\".\"Order Lines\"]".
        Assert.Equal(new[] { "NpgsqlCopyRaw", "NpgsqlCopyRawTuned" }.Select(i => $"NpgsqlCopy:{i}[{Table}]").Order(StringComparer.Ordinal),
            runs.Select(r => r.GetProperty("case").GetString()!).Distinct().Order(StringComparer.Ordinal));
        Assert.Equal(4, runs.Count);
        Assert.All(runs, run =>
        {
            Assert.Equal(Table, run.GetProperty("table").GetString());
            Assert.True(run.GetProperty("runnerVerified").GetBoolean(), run.ToString());
            Assert.True(run.GetProperty("result").GetProperty("verified").GetBoolean());
            // The four awkward rows and the 2,000 more, every one of them, whatever --rows said.
            Assert.Equal(2_004L, run.GetProperty("result").GetProperty("rows").GetInt64());
            // The target was emptied before the run: it differed from the source.
            Assert.Equal(0L, run.GetProperty("targetBefore").GetProperty("rows").GetInt64());
        });
        // The floor (issue 65): the read-only peers ran on the team's table too, each verified (the dump compared after
        // the run says they only read it).
        var peers = report.GetProperty("peers").EnumerateArray().ToList();
        Assert.Equal(["pgcopydb", "psql-binary", "psql-text"], peers.Select(p => p.GetProperty("peer").GetString()!).Distinct().Order(StringComparer.Ordinal));
        Assert.All(peers, peer =>
        {
            Assert.True(peer.GetProperty("ok").GetBoolean() && peer.GetProperty("verified").GetBoolean(), peer.ToString());
            Assert.Equal(Table, peer.GetProperty("table").GetString());
            Assert.Equal(2_004L, peer.GetProperty("rows").GetInt64());
        });
    }

    /// <summary>The database as pg_dump writes it (schema, rows, grants), and what pg_dump does not show.</summary>
    internal static async Task<string> StateAsync(LocalPostgres postgres, string owner)
    {
        var dump = await ChildProcess.RunAsync("pg_dump", ["--host=127.0.0.1", $"--port={postgres.Port}", "--username=postgres", "--no-password",
                // A fixed \restrict key: pg_dump otherwise writes a random one into every dump.
                "--restrict-key=OwnTableBenchTests", Database],
            new ChildProcessOptions { KeepAllOutput = true }, TimeSpan.FromMinutes(1));
        Assert.True(dump.ExitCode == 0, dump.StandardError);
        return dump.StandardOutput + "\n" + await Lab.ScalarAsync(owner, Fixture("team-database-state.sql"));
    }
}
