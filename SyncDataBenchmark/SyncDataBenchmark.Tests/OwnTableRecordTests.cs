using System.Text.Json;
using Npgsql;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The runner on a team's own table (--source-connection), as a new user meets it (issue 62): a database it cannot
/// reach, or an empty table, refused before any cluster or service starts, naming the connection without its
/// password; and the record of a run naming its source, what was left out and why, and nothing it did not do.
/// </summary>
[Trait("Tier", "Lab")]
public sealed class OwnTableRecordTests
{
    private const string Table = "\"Team Sales\".\"Order Lines\"";
    private const string Database = "team_books";

    private static string Fixture(string name) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", name));

    [Fact]
    public async Task An_unreachable_source_or_an_empty_table_is_refused_before_anything_starts()
    {
        await using var postgres = await LocalPostgres.StartAsync();
        await postgres.CreateDatabaseAsync(Database);
        await Lab.ScalarAsync(postgres.ConnectionString(Database), "create table public.nothing_yet (id integer primary key)");

        var stranger = new NpgsqlConnectionStringBuilder(postgres.ConnectionString(Database)) { Username = "no_such_role", Password = "s3cret-pw" }.ConnectionString;
        var (refused, why) = await RunAsync(["--source-connection", stranger, "--table", "public.nothing_yet"]);
        Assert.True(refused == 2, $"exit code {refused}:\n{why}");
        Assert.Contains($"--source-connection (server 127.0.0.1:{postgres.Port}, database {Database}, user no_such_role): cannot connect", why, StringComparison.Ordinal);
        Assert.DoesNotContain("s3cret-pw", why, StringComparison.Ordinal);
        AssertNothingStarted(why);

        (refused, why) = await RunAsync(["--source-connection", postgres.ConnectionString(Database), "--table", "public.nothing_yet"]);
        Assert.True(refused == 2, $"exit code {refused}:\n{why}");
        Assert.Contains("Your table public.nothing_yet", why, StringComparison.Ordinal);
        Assert.Contains("is empty", why, StringComparison.Ordinal);
        AssertNothingStarted(why);

        (refused, why) = await RunAsync(["--source-connection", postgres.ConnectionString(Database), "--table", "public.not_there"]);
        Assert.True(refused == 2, $"exit code {refused}:\n{why}");
        Assert.Contains("--table public.not_there: no such table", why, StringComparison.Ordinal);
        AssertNothingStarted(why);
    }

    [Fact]
    public async Task The_record_of_a_run_on_a_teams_table_names_its_source_and_what_was_left_out_and_nothing_it_did_not_do()
    {
        await using var postgres = await LocalPostgres.StartAsync();
        await postgres.CreateDatabaseAsync(Database);
        await Lab.ScalarAsync(postgres.ConnectionString(Database), Fixture("team-table.sql"));
        var output = Directory.CreateTempSubdirectory("syncdata-own-record-");
        try
        {
            var source = new NpgsqlConnectionStringBuilder(postgres.ConnectionString(Database)) { Password = "pw-never-recorded" }.ConnectionString;
            var (exitCode, console) = await RunAsync(["--source-connection", source, "--table", Table,
                "--cases", "NpgsqlCopy:NpgsqlCopyRaw,NpgsqlCopy:NpgsqlCopy,NpgsqlCopy:NpgsqlCopyRawMerge",
                "--repeat", "1", "--max-repeat", "1", "--max-warmup", "1", "--out", output.FullName]);
            Assert.True(exitCode == 0, $"exit code {exitCode}:\n{console}");

            var json = await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json"));
            Assert.DoesNotContain("pw-never-recorded", json, StringComparison.Ordinal);
            using var record = JsonDocument.Parse(json);
            var parameters = record.RootElement.GetProperty("parameters");
            Assert.False(parameters.GetProperty("seedReused").GetBoolean());
            var own = parameters.GetProperty("ownTable");
            Assert.Equal(Table, own.GetProperty("table").GetString());
            Assert.Equal($"server 127.0.0.1:{postgres.Port}, database {Database}, user postgres", own.GetProperty("source").GetString());
            var leftOut = own.GetProperty("leftOut").EnumerateArray().Select(l => l.GetString()!).ToList();
            Assert.Contains(leftOut, l => l.StartsWith("Not run on your table: NpgsqlCopy (Npgsql's binary importer)", StringComparison.Ordinal) && l.Contains("NpgsqlCopy × NpgsqlCopy", StringComparison.Ordinal));
            Assert.Contains(leftOut, l => l.StartsWith("Not run on your table by the runner: NpgsqlCopy × NpgsqlCopyRawMerge", StringComparison.Ordinal));
            Assert.Contains(leftOut, l => l.StartsWith("Not run on your table: the peers", StringComparison.Ordinal));
            // The CLR type each column got in the generated class (every typed writer's), or why none.
            var columns = own.GetProperty("columns").EnumerateArray().ToDictionary(c => c.GetProperty("name").GetString()!, c => c);
            Assert.Equal("NodaTime.Period", columns["span"].GetProperty("clrType").GetString());
            Assert.Equal("NpgsqlTypes.NpgsqlInet", columns["addr"].GetProperty("clrType").GetString());
            Assert.Equal("an enum generated from its labels", columns["mood"].GetProperty("clrType").GetString());
            Assert.StartsWith("the generator maps arrays of bool", columns["words"].GetProperty("notMapped").GetString(), StringComparison.Ordinal);
            Assert.Equal("a generated column: the target computes it", columns["total_with_tax"].GetProperty("notMapped").GetString());

            var markdown = await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.md"));
            Assert.Contains($"- Source: your table {Table} (server 127.0.0.1:{postgres.Port}, database {Database}, user postgres), only read", markdown, StringComparison.Ordinal);
            Assert.All(leftOut, l => Assert.Contains($"- {l}", markdown, StringComparison.Ordinal));
            Assert.DoesNotContain("seed reused", markdown, StringComparison.Ordinal);
            // The peers ran on the table, so results.md says how they are timed.
            Assert.Contains("Peers run in the same session", markdown, StringComparison.Ordinal);
            Assert.Contains("empties your table's copy in the target (untimed)", markdown, StringComparison.Ordinal);
            // The floor: the peers that only read ran on the table, each verified, so the cases have a ratio to the pipe.
            var peers = record.RootElement.GetProperty("peers").EnumerateArray().Where(p => !p.GetProperty("warmup").GetBoolean()).ToList();
            Assert.Equal(["pgcopydb", "psql-binary", "psql-text"], peers.Select(p => p.GetProperty("peer").GetString()).Distinct().Order(StringComparer.Ordinal));
            Assert.All(peers, p => Assert.True(p.GetProperty("verified").GetBoolean(), p.ToString()));
            Assert.DoesNotContain("so there is no psql pipe to take a ratio to", markdown, StringComparison.Ordinal);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    /// <summary>Refused before the runner started a cluster or a service.</summary>
    private static void AssertNothingStarted(string console)
    {
        Assert.DoesNotContain("Starting a throwaway PostgreSQL cluster", console, StringComparison.Ordinal);
        Assert.DoesNotContain("Starting SyncDataSource", console, StringComparison.Ordinal);
    }

    /// <summary>The runner writing into a directory of its own unless <paramref name="arguments"/> name one.</summary>
    private static async Task<(int ExitCode, string Output)> RunAsync(string[] arguments)
    {
        if (arguments.Contains("--out"))
        {
            return await BenchCommandTests.RunAsync([.. arguments, "--no-charts"]);
        }

        var output = Directory.CreateTempSubdirectory("syncdata-own-refused-");
        try
        {
            return await BenchCommandTests.RunAsync([.. arguments, "--no-charts", "--out", output.FullName]);
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }
}
