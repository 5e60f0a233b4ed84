using SyncData.Harness;
using SyncData.Postgres;
using SyncDataBenchmark.Runner.Follow;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The follow matrix's write loads do what their headers say on a small table (issue 64): pgbench runs each table's
/// script unthrottled over a 10,000-row copy (the size of the smoke run docs/replication.md recommends) and the rows it
/// wrote, counted from the WAL as the runner counts them, hold inserts, updates and deletes in the shares the script's
/// '-- mix:' line asks for, each within 8 points. In a database of its own on the changes lab's cluster.
/// </summary>
[Collection(ChangesCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class FollowLoadTests(ChangesLab lab)
{
    private const int Rows = 10_000;

    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task The_write_load_inserts_updates_and_deletes_as_asked_on_a_small_table(string name)
    {
        var table = SyncTable.Named(name);
        var db = await ScratchDatabase.RecreateAsync(lab.Postgres, $"follow_load_{name}");
        await SqlScripts.SeedAsync(db, table, Rows);
        await Lab.ScalarAsync(db, FollowSql.Read("prepare-source.sql"));
        var from = await FollowLag.FlushedPositionAsync(db, CancellationToken.None);

        await FollowLoad.BacklogAsync(db, table, 3_000, CancellationToken.None);

        var written = await WrittenRows.SinceAsync(db, table, from, CancellationToken.None);
        var asked = FollowScript.Of(table).Mix;
        Assert.InRange(written.Total, 2_000, 4_000);
        Assert.True(written.Updated > 0 && written.Deleted > 0, $"{name}: {written}");
        foreach (var (kind, share, askedShare) in new[] { ("inserted", written.Inserted / written.Total, asked.Inserted / asked.Total),
                     ("updated", written.Updated / written.Total, asked.Updated / asked.Total), ("deleted", written.Deleted / written.Total, asked.Deleted / asked.Total) })
        {
            Assert.True(Math.Abs(share - askedShare) < 0.08, $"{name}: {kind} {share:P0} of the rows written, asked {askedShare:P0} ({written})");
        }
    }
}
