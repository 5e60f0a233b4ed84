using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// One host as the runner sets it up (<see cref="OneHost"/>: wal_level = logical, for the logical-replication peer)
/// with a seeded source and an empty target; no services: the peers are tools outside the lab.
/// </summary>
public sealed class PeerLab : IAsyncLifetime
{
    public const long Rows = 2_003;

    public LabDatabases Databases { get; private set; } = null!;
    public string SourceDb => Databases.SourceDb;
    public string TargetDb => Databases.TargetDb;

    /// <summary>Each table's runner, verifying against that table's source checksum.</summary>
    public PeerRunner RunnerFor(SyncTable table) => new(SourceDb, TargetDb, table, Checksums[table.Name]);

    public Dictionary<string, TableChecksum> Checksums { get; } = [];

    public async Task InitializeAsync()
    {
        Databases = await OneHost.StartAsync(tmpfs: false, _ => { }, CancellationToken.None);
        await Lab.PrepareDatabasesAsync(SourceDb, TargetDb, Rows);
        await SqlScripts.SeedAsync(SourceDb, SyncTable.Orders, Rows);
        foreach (var table in SyncTable.All)
        {
            Checksums[table.Name] = await Lab.ReadChecksumAsync(SourceDb, table);
        }
    }

    public async Task DisposeAsync() => await LabDatabases.DisposeAllAsync(Databases);

    /// <summary>Set-up and tear-down: no subscription, slot, publication, foreign server or source-side helper of a peer outlives its run.</summary>
    public async Task AssertNothingLeftBehindAsync()
    {
        Assert.Equal(0L, await Lab.ScalarAsync(TargetDb, "select count(*) from pg_subscription"));
        Assert.Equal(0L, await Lab.ScalarAsync(TargetDb, "select count(*) from pg_foreign_server"));
        Assert.Equal(0L, await Lab.ScalarAsync(SourceDb, "select count(*) from pg_replication_slots"));
        Assert.Equal(0L, await Lab.ScalarAsync(SourceDb, "select count(*) from pg_publication"));
        Assert.Equal(0L, await Lab.ScalarAsync(SourceDb, "select count(*) from pg_class where relname like 'syncdata_fdw%'"));
    }
}

[CollectionDefinition(Name)]
public sealed class PeerCollection : ICollectionFixture<PeerLab>
{
    public const string Name = "peers";
}

/// <summary>Each peer really copies each table, from a target that differs, verified by the runner itself, and leaves nothing behind.</summary>
[Collection(PeerCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class PeerTests(PeerLab lab)
{
    public static TheoryData<string, string> PeerKeys()
    {
        var data = new TheoryData<string, string>();
        foreach (var (peer, table) in PeerDefinition.All.Where(p => !p.Changes).SelectMany(p => SyncTable.All.Select(t => (p.Key, t.Name))))
        {
            data.Add(peer, table);
        }

        return data;
    }

    [Fact]
    public void The_peers_are_exactly_the_nine_named_six_filling_an_empty_target()
    {
        Assert.Equal(["psql-binary", "psql-text", "pgcopydb", "postgres-fdw", "logical-replication", "psql-binary-tuned", "psql-merge", "postgres-fdw-merge", "logical-replication-catchup"],
            PeerDefinition.All.Select(p => p.Key));
        Assert.Equal(6, PeerDefinition.All.Count(p => !p.Changes));
    }

    [Theory]
    [MemberData(nameof(PeerKeys))]
    public async Task Peer_copies_every_row_verified_by_the_runner_and_leaves_nothing_behind(string key, string tableName)
    {
        var peer = PeerDefinition.All.Single(p => p.Key == key);
        var table = SyncTable.Named(tableName);

        var run = await lab.RunnerFor(table).RunAsync(peer, 1, false, CancellationToken.None);

        Assert.True(run.Ok, run.Error);
        Assert.Equal(table.Name, run.Table);
        Assert.Equal(PeerLab.Rows, run.Rows);
        Assert.Equal(lab.Checksums[table.Name], run.Target);
        Assert.Equal(lab.Checksums[table.Name], await Lab.ReadChecksumAsync(lab.TargetDb, table));
        Assert.Equal(peer.Scope, run.Scope);
        Assert.True(run.DurationMs > 0);
        if (peer.Scope == PeerScopes.TargetStatements)
        {
            // The target's own clock excludes process starts and connections: never longer than the whole command.
            Assert.True(run.DurationMs <= run.WallMs, $"target statements {run.DurationMs} ms, whole command {run.WallMs} ms");
        }
        else
        {
            Assert.Equal(run.WallMs, run.DurationMs);
        }

        // The tuned peer dropped and re-added the primary key: it is back, as sql/schema.sql defines it.
        Assert.Equal($"{table.Name}_pkey PRIMARY KEY (id)", await Lab.ScalarAsync(lab.TargetDb,
            $"select conname || ' ' || pg_get_constraintdef(oid) from pg_constraint where conrelid = '{table.Name}'::regclass and contype = 'p'"));
        await lab.AssertNothingLeftBehindAsync();
    }

    [Theory]
    [InlineData(PeerScopes.WholeCommand, "users")]
    [InlineData(PeerScopes.TargetStatements, "users")]
    [InlineData(PeerScopes.WholeCommand, "orders")]
    public async Task A_peer_that_does_nothing_comes_out_failed_even_when_the_target_already_equals_the_source(string scope, string tableName)
    {
        var table = SyncTable.Named(tableName);
        // A real peer first, so the target holds exactly the source's rows: only making it differ can fail a no-op.
        var copied = await lab.RunnerFor(table).RunAsync(PeerDefinition.All.Single(p => p.Key == PeerDefinition.PsqlBinaryKey), 1, false, CancellationToken.None);
        Assert.True(copied.Ok, copied.Error);
        Assert.Equal(lab.Checksums[table.Name], await Lab.ReadChecksumAsync(lab.TargetDb, table));
        var noop = new PeerDefinition("noop", "does nothing", "nothing", "nothing", "bash", "true", scope);

        var run = await lab.RunnerFor(table).RunAsync(noop, 1, false, CancellationToken.None);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.False(run.Ok);
        Assert.Contains(scope == PeerScopes.WholeCommand ? "Verification failed" : "did not record the target's clock", run.Error);
        Assert.NotEqual(lab.Checksums[table.Name], await Lab.ReadChecksumAsync(lab.TargetDb, table));
    }

    [Fact]
    public async Task Pgcopydb_whose_copy_fails_comes_out_failed_with_its_error_although_it_exits_0()
    {
        // Every generated row breaks this constraint; the sentinel row the runner plants does not.
        await Lab.ScalarAsync(lab.TargetDb, "alter table users add constraint planted_failure check (name like 'sentinel%') not valid");
        try
        {
            var run = await lab.RunnerFor(SyncTable.Users).RunAsync(PeerDefinition.All.Single(p => p.Key == PeerDefinition.PgcopydbKey), 1, false, CancellationToken.None);

            Assert.Equal(RunStatus.Failed, run.Status);
            Assert.Equal(0, run.ExitCode);
            Assert.Contains("its log reports errors", run.Error);
            Assert.Contains("planted_failure", run.Error);
        }
        finally
        {
            await Lab.ScalarAsync(lab.TargetDb, "alter table users drop constraint planted_failure");
        }
    }
}
