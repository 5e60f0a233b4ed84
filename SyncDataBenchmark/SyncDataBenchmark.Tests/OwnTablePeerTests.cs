using Npgsql;
using SyncData.Harness;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The floor on a team's own table (issue 65, item 4; docs/own-table.md): the peers that only read the source (the psql
/// binary and text pipes, pgcopydb's copy) move Fixtures/team-table.sql's table of awkward types and names from a
/// database the lab did not create, reached as the runner reaches it (read only, through a role that may only SELECT
/// it), into the lab's target made from its description; each run verified by the runner over every column, and the
/// team's database byte for byte what it was (pg_dump) with no slot, publication, relation, trigger or function added.
/// </summary>
[Trait("Tier", "Lab")]
public sealed class OwnTablePeerTests
{
    private const string Table = "\"Team Sales\".\"Order Lines\"";

    private static string Fixture(string name) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", name));

    [Fact]
    public void Only_the_peers_that_read_the_source_and_nothing_else_run_on_a_users_table() =>
        Assert.Equal([PeerDefinition.PsqlBinaryKey, PeerDefinition.PsqlTextKey, PeerDefinition.PgcopydbKey],
            PeerDefinition.All.Where(p => p.ReadsSourceOnly).Select(p => p.Key));

    [Theory]
    [InlineData("team_reader")]
    [InlineData("postgres")]
    public async Task Each_read_only_peer_copies_a_teams_table_verified_and_leaves_its_database_byte_identical(string role)
    {
        await using var postgres = await LocalPostgres.StartAsync();
        await postgres.CreateDatabaseAsync("team_books");
        await postgres.CreateDatabaseAsync("lab_target");
        var owner = postgres.ConnectionString("team_books") + ";Pooling=false";
        foreach (var script in new[] { "team-table.sql", "team-table-rows.sql", "team-reader.sql" })
        {
            await Lab.ScalarAsync(owner, Fixture(script));
        }

        var before = await OwnTableBenchTests.StateAsync(postgres, owner);
        var source = OwnTableSource.ReadOnly(new NpgsqlConnectionStringBuilder(owner) { Username = role }.ConnectionString);
        var target = postgres.ConnectionString("lab_target");
        var table = await OwnTableSource.DescribeAsync(source, Table, _ => { }, CancellationToken.None);
        await OwnTableSource.CreateTargetAsync(target, table, _ => { }, CancellationToken.None);
        var checksum = await Lab.ReadChecksumAsync(source, table);
        var runner = new PeerRunner(source, target, table, checksum) { Start = ct => OwnTableSource.EmptyTargetAsync(target, table, checksum, ct) };

        foreach (var peer in PeerDefinition.All.Where(p => p.ReadsSourceOnly))
        {
            var run = await runner.RunAsync(peer, 1, false, CancellationToken.None);
            Assert.True(run.Ok, $"{peer.Key}: {run.Error}");
            Assert.Equal(checksum, run.Target);
            Assert.NotEqual(checksum, run.TargetBefore);
            Assert.Equal(checksum, await Lab.ReadChecksumAsync(target, table));
        }

        Assert.Equal(before, await OwnTableBenchTests.StateAsync(postgres, owner));
    }
}
