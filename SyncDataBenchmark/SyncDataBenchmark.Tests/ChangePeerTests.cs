using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>A lab of its own (PeerLab, another instance): these tests change the source, which the peers' lab keeps as seeded.</summary>
[CollectionDefinition(Name)]
public sealed class ChangePeerCollection : ICollectionFixture<PeerLab>
{
    public const string Name = "change-peers";
}

/// <summary>
/// Each change peer (--changed) brings a target that equalled the source before it changed up to date, verified by
/// the runner against the source's checksum after the change; one that does nothing fails.
/// </summary>
[Collection(ChangePeerCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangePeerTests(PeerLab lab)
{
    private const double Share = 0.01;

    public static TheoryData<string, string> ChangePeerKeys()
    {
        var data = new TheoryData<string, string>();
        foreach (var (peer, table) in PeerDefinition.All.Where(p => p.Changes).SelectMany(p => SyncTable.All.Select(t => (p.Key, t.Name))))
        {
            data.Add(peer, table);
        }

        return data;
    }

    private PeerRunner ChangedRunner(SyncTable table, int seed) =>
        new(lab.SourceDb, lab.TargetDb, table, lab.Checksums[table.Name]) { Start = ct => TargetPreparation.ChangedAsync(lab.SourceDb, lab.TargetDb, table, Share, seed, ct) };

    [Fact]
    public void The_change_peers_are_the_three_named_and_only_they_need_a_changed_target()
    {
        Assert.Equal(["psql-merge", "postgres-fdw-merge", "logical-replication-catchup"], PeerDefinition.All.Where(p => p.Changes).Select(p => p.Key));
    }

    [Theory]
    [MemberData(nameof(ChangePeerKeys))]
    public async Task Change_peer_brings_the_changed_target_up_to_date_verified_by_the_runner_and_leaves_nothing_behind(string key, string tableName)
    {
        var table = SyncTable.Named(tableName);
        var peer = PeerDefinition.Find(key)!;

        var run = await ChangedRunner(table, seed: 7).RunAsync(peer, 1, false, CancellationToken.None);

        Assert.True(run.Ok, run.Error);
        Assert.Equal(("1%", (double?)Share), (run.Changed, run.ChangedShare));
        Assert.True(run.Changes is { Updated: > 0, Inserted: > 0, Deleted: > 0 }, $"{run.Changes}");
        var source = await Lab.ReadChecksumAsync(lab.SourceDb, table);
        Assert.Equal(source, run.Target);
        Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb, table));
        Assert.True(run.DurationMs > 0 && run.DurationMs <= run.WallMs, $"target statements {run.DurationMs} ms, whole command {run.WallMs} ms");
        await lab.AssertNothingLeftBehindAsync();
    }

    [Theory]
    [InlineData(PeerScopes.WholeCommand, "users")]
    [InlineData(PeerScopes.WholeCommand, "orders")]
    public async Task A_change_peer_that_does_nothing_comes_out_failed(string scope, string tableName)
    {
        var table = SyncTable.Named(tableName);
        var noop = new PeerDefinition("noop", "does nothing", "nothing", "nothing", "bash", "true", scope) { Changes = true };

        var run = await ChangedRunner(table, seed: 8).RunAsync(noop, 1, false, CancellationToken.None);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("Verification failed", run.Error);
        Assert.NotEqual(await Lab.ReadChecksumAsync(lab.SourceDb, table), await Lab.ReadChecksumAsync(lab.TargetDb, table));
    }

    [Fact]
    public async Task A_change_that_changes_nothing_is_refused_before_any_run_could_verify_without_syncing()
    {
        // A change generator that changes nothing: the target would equal the source, and a no-op would verify.
        await Lab.ScalarAsync(lab.SourceDb, "create or replace function change_users(share double precision, seed integer) "
            + "returns table (updated bigint, inserted bigint, deleted bigint) language sql as 'select 0::bigint, 0::bigint, 0::bigint'");
        try
        {
            var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => TargetPreparation.ChangedAsync(lab.SourceDb, lab.TargetDb, SyncTable.Users, Share, 1, CancellationToken.None));

            Assert.Contains("equals the source after changing 1% of its rows (0 updated, 0 inserted, 0 deleted): a run could verify without syncing", refused.Message);
        }
        finally
        {
            await SqlScripts.ApplyChangeTrackingAsync(lab.SourceDb);
        }
    }

    [Fact]
    public async Task A_change_peer_without_a_watermark_fails_naming_it()
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, SyncTable.Users, lab.Checksums[SyncTable.Users.Name]);
        await Lab.ScalarAsync(lab.TargetDb, "delete from sync_watermarks");
        var start = new TargetStart(await Lab.ReadChecksumAsync(lab.SourceDb, SyncTable.Users), await Lab.ReadChecksumAsync(lab.TargetDb, SyncTable.Users));

        var run = await new PeerRunner(lab.SourceDb, lab.TargetDb, SyncTable.Users, start.Source) { Start = _ => Task.FromResult(start) }
            .RunAsync(PeerDefinition.Find(PeerDefinition.PsqlMergeKey)!, 1, false, CancellationToken.None);

        Assert.False(run.Ok);
        Assert.Contains("the target has no watermark for users", run.Error);
    }
}
