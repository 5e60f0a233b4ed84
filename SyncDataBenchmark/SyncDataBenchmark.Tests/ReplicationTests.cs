using System.Net;
using System.Net.Http.Json;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// NpgsqlReplication's guarantees (docs/replication.md), each over scratch databases of the in-process lab's cluster
/// (wal_level = logical, as the harness starts every cluster), both services in process (as processes where one is
/// killed): the first copy and the stream meet at the slot's consistent point under concurrent writes; a SomeService
/// stopped mid-transaction, or its process killed mid-batch, and started again loses and repeats nothing; unchanged
/// TOASTed values keep the target's; a DDL change is a named failure; no slot or publication is left. "Equal" is the
/// runner's count and checksum (TableChecksumQueries); "applied twice" is a row version the target wrote twice
/// (Fixtures/replication-audit.sql).
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ReplicationTests(InProcessLab lab, Xunit.Abstractions.ITestOutputHelper output)
{
    private static string Fixture(string name) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", name));

    [Fact]
    public async Task The_first_copy_and_the_stream_meet_at_the_consistent_point_under_concurrent_writes()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_handover", SyncTable.Users, 2_000);
        await Lab.ScalarAsync(pair.TargetDb, Fixture("replication-audit.sql"));
        await using var load = new WriteLoad(pair.SourceDb, TimeSpan.FromMilliseconds(2));
        await Task.Delay(300); // writes already flowing when the slot is created and the copy read

        await pair.StartAsync(batch: 200);
        var following = await pair.WaitForAsync(s => s.State == FollowStatus.Following);
        await pair.WaitForAsync(s => s.TransactionsApplied >= 50);
        await load.StopAsync();
        await pair.DrainAsync();

        Assert.True(following.RowsCopied > 0, $"{following}");
        Assert.True(load.Transactions > 50, $"only {load.Transactions} transactions were written");
        await AssertEqualAndOnceAsync(pair);
    }

    [Fact]
    public async Task SomeService_stopped_mid_transaction_and_started_again_loses_and_repeats_nothing()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_restart", SyncTable.Users, 2_000);
        await FollowAuditedAsync(pair);
        await using var load = new WriteLoad(pair.SourceDb, TimeSpan.FromMilliseconds(2));
        await pair.WaitForAsync(s => s.TransactionsApplied >= 20);

        // The target's users locked: the follower's next batch waits inside its transaction, rows and LSN written or not
        // together; SomeService stops there, and the transaction is rolled back.
        await using (await LockTargetUsersAsync(pair.TargetDb))
        {
            await WaitForLockWaiterAsync(pair.TargetDb);
            await pair.RestartSomeServiceAsync();
        }

        await pair.StartAsync(batch: 100);
        await pair.WaitForAsync(s => s is { State: FollowStatus.Following, TransactionsApplied: >= 20 });
        await load.StopAsync();
        await pair.DrainAsync();

        await AssertEqualAndOnceAsync(pair);
    }

    /// <summary>
    /// SomeService's process killed (SIGKILL) while a batch of changes waits inside its target transaction, behind the
    /// test's lock, and while the stream delivers changes past that batch; a new process on the same target, its follower
    /// started again through the API: equal, nothing applied twice, and the drop leaves no slot or publication.
    /// </summary>
    [Fact]
    public async Task SomeService_process_killed_mid_batch_and_another_started_loses_and_repeats_nothing()
    {
        await using var pair = await FollowedPair.CreateWithProcessesAsync(lab, "repl_killed", SyncTable.Users, 2_000);
        await FollowAuditedAsync(pair);
        await using var load = new WriteLoad(pair.SourceDb, TimeSpan.FromMilliseconds(2));
        await pair.WaitForAsync(s => s.TransactionsApplied >= 20);

        int follower;
        FollowStatus killed;
        await using (await LockTargetUsersAsync(pair.TargetDb))
        {
            // Only a batch holding changes opens a target transaction: waiting there, it has rows and LSN uncommitted.
            follower = await WaitForLockWaiterAsync(pair.TargetDb);
            await WaitForStreamPastAsync(pair, load);
            killed = await pair.StatusAsync();
            await pair.KillSomeServiceAsync();
        }

        // The lock released, the killed client's backend runs on, finds its client gone and rolls back (no COMMIT came).
        await WaitUntilAsync(async () => !(bool)(await Lab.ScalarAsync(pair.TargetDb, Fixture("replication-backend-alive.sql"), [follower]))!,
            $"The killed follower's backend {follower} never ended.");
        await pair.StartAnotherSomeServiceAsync();
        await pair.StartAsync(batch: 100);
        await pair.WaitForAsync(s => s is { State: FollowStatus.Following, TransactionsApplied: >= 20 });
        await load.StopAsync();
        await pair.DrainAsync();

        output.WriteLine($"killed at {killed}; the new process's follower: {await pair.StatusAsync()}");
        await AssertEqualAndOnceAsync(pair);
        Assert.Equal(HttpStatusCode.OK, await pair.StopAsync(drop: true));
        Assert.Equal((0L, 0L), await pair.LeftOnSourceAsync());
    }

    [Fact]
    public async Task SyncDataSource_restarted_mid_stream_the_follower_resumes_and_loses_and_repeats_nothing()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_source_restart", SyncTable.Users, 2_000);
        await FollowAuditedAsync(pair);
        await using var load = new WriteLoad(pair.SourceDb, TimeSpan.FromMilliseconds(2));
        var before = await pair.WaitForAsync(s => s.TransactionsApplied >= 20);
        var reader = await SlotReaderAsync(pair);

        await pair.RestartSourceAsync();

        // The same follower (not started again) reopens the stream from the LSN it stored and goes on applying.
        var after = await pair.WaitForAsync(s => s is { State: FollowStatus.Following } && s.TransactionsApplied >= before.TransactionsApplied + 20);
        await load.StopAsync();
        await pair.DrainAsync();

        output.WriteLine($"before the restart: {before}; after: {after}");
        // Another replication connection reads the slot now: the stream was opened again, not left running.
        Assert.NotEqual(reader, await SlotReaderAsync(pair));
        await AssertEqualAndOnceAsync(pair);
    }

    [Fact]
    public async Task The_source_PostgreSQL_restarted_mid_stream_the_follower_resumes_and_loses_and_repeats_nothing()
    {
        // The source on a cluster of its own, so that its restart leaves the target's connection alone.
        await using var sourceCluster = await LocalPostgres.StartAsync(LabDatabases.LabPostgresSettings);
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_pg_restart", SyncTable.Users, 2_000, sourceCluster);
        await FollowAuditedAsync(pair);
        FollowStatus before;
        await using (var load = new WriteLoad(pair.SourceDb, TimeSpan.FromMilliseconds(2)))
        {
            before = await pair.WaitForAsync(s => s.TransactionsApplied >= 20);
            await load.StopAsync();
        }

        // An immediate stop: the server's processes end as in a crash, the slot back at its last checkpointed position.
        await sourceCluster.StopAsync(immediate: true);
        await sourceCluster.RestartAsync();
        await using (var load = new WriteLoad(pair.SourceDb, TimeSpan.FromMilliseconds(2)))
        {
            await pair.WaitForAsync(s => s is { State: FollowStatus.Following } && s.TransactionsApplied >= before.TransactionsApplied + 20);
            await load.StopAsync();
        }

        await pair.DrainAsync();
        output.WriteLine($"before the restart: {before}; after: {await pair.StatusAsync()}");
        await AssertEqualAndOnceAsync(pair);
    }

    /// <summary>
    /// The follower commits with synchronous_commit off and acknowledges a position only once the target has flushed it
    /// (FlushGate). Here the target is a cluster of its own whose WAL stays unflushed for up to 10 s (wal_writer_delay,
    /// no autovacuum or checkpoint to flush it sooner); once the follower applied every transaction the target is stopped
    /// in immediate mode, as a crash: the commits still in its WAL buffers are lost, the stored LSN with them. Started
    /// again, the follower resumes from the stored LSN and the slot sends the lost transactions again: equal, nothing twice.
    /// Acknowledged on commit instead, the slot would have confirmed past them and they would never come again.
    /// </summary>
    [Fact]
    public async Task The_target_PostgreSQL_crashed_before_flushing_its_commits_the_follower_resumes_from_what_was_flushed_and_loses_nothing()
    {
        await using var sourceCluster = await LocalPostgres.StartAsync(LabDatabases.LabPostgresSettings);
        await using var targetCluster = await LocalPostgres.StartAsync(new Dictionary<string, string>(LabDatabases.LabPostgresSettings)
        {
            ["wal_writer_delay"] = "10s", ["wal_writer_flush_after"] = "1GB", ["autovacuum"] = "off", ["checkpoint_timeout"] = "1h",
        });
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_target_crash", SyncTable.Users, 2_000, sourceCluster, targetCluster);
        await FollowAuditedAsync(pair);
        var written = 0;
        await using (var load = new WriteLoad(pair.SourceDb, TimeSpan.FromMilliseconds(2)))
        {
            await pair.WaitForAsync(s => s.TransactionsApplied >= 30);
            await load.StopAsync();
            written = load.Transactions;
        }

        // Every transaction applied (committed, not flushed: the walwriter waits 10 s), the follower idle.
        var applied = await pair.WaitForAsync(s => s.TransactionsApplied >= written);
        await targetCluster.StopAsync(immediate: true);
        await targetCluster.RestartAsync();

        var stored = (string?)await Lab.ScalarAsync(pair.TargetDb, "select lsn::text from replication_watermarks where table_name = 'users'");
        output.WriteLine($"applied before the crash: {applied.AppliedLsn}; stored after it: {stored}");
        Assert.True(NpgsqlTypes.NpgsqlLogSequenceNumber.Parse(stored!) < NpgsqlTypes.NpgsqlLogSequenceNumber.Parse(applied.AppliedLsn!),
            $"The crash lost no committed batch (applied {applied.AppliedLsn}, stored {stored}): the test cannot tell what was confirmed.");
        // The follower lost its target connection: stopped (its slot kept) and started again, it resumes from the stored LSN.
        await pair.StopAsync(drop: false);
        await pair.StartAsync(batch: 100);
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);
        await pair.DrainAsync();
        await AssertEqualAndOnceAsync(pair);
    }

    /// <summary>
    /// A follower whose source is gone says so at GET /follow/{table}: still following (it reopens the stream from its
    /// stored LSN every second, its slot kept), its error naming SyncDataSource not answering; once a source is back it
    /// goes on and the error clears with the next applied batch.
    /// </summary>
    [Fact]
    public async Task A_follower_whose_source_is_gone_says_so_and_goes_on_once_it_is_back()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_source_gone", SyncTable.Users, 500);
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);

        await pair.StopSourceAsync();
        var gone = await pair.WaitForAsync(s => s.Error is not null);
        Assert.Equal(FollowStatus.Following, gone.State);
        Assert.Contains("SyncDataSource", gone.Error, StringComparison.Ordinal);

        pair.StartSource();
        await Lab.ScalarAsync(pair.SourceDb, "update users set name = 'back' where id = (select id from users limit 1)");
        await pair.WaitForAsync(s => s.Error is null && s.TransactionsApplied >= 1);
        await pair.DrainAsync();
        Assert.Equal(await Lab.ReadChecksumAsync(pair.SourceDb, pair.Table), await Lab.ReadChecksumAsync(pair.TargetDb, pair.Table));
    }

    /// <summary>The backend reading the slot (pg_replication_slots.active_pid), once one does.</summary>
    private static async Task<int> SlotReaderAsync(FollowedPair pair)
    {
        for (var tries = 0; ; tries++)
        {
            if (await Lab.ScalarAsync(pair.SourceDb, "select active_pid from pg_replication_slots where slot_name = $1", [pair.Slot]) is int pid)
            {
                return pid;
            }

            Assert.True(tries < 300, "No connection reads the slot");
            await Task.Delay(100);
        }
    }

    [Fact]
    public async Task Updates_leaving_TOASTed_values_unchanged_keep_the_targets_values()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_toast", SyncTable.Orders, 300);
        await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-toast.sql"), [40]);
        Assert.True((long)(await Lab.ScalarAsync(pair.SourceDb, "select count(*) from orders where pg_column_size(note) > 2000"))! >= 40);
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);

        // Twice, in two transactions: the second folds onto the first in one batch or applies on its own.
        await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-touch-orders.sql"), [40]);
        await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-touch-orders.sql"), [20]);
        await pair.DrainAsync();

        Assert.True((await pair.StatusAsync()).ChangesApplied >= 60);
        Assert.Equal(await Lab.ReadChecksumAsync(pair.SourceDb, SyncTable.Orders), await Lab.ReadChecksumAsync(pair.TargetDb, SyncTable.Orders));
        Assert.Equal(0L, (long)(await Lab.ScalarAsync(pair.TargetDb, "select count(*) from orders where note is null and id <= 40"))!);
    }

    /// <summary>
    /// A table the lab has no classes for, keyed on three columns (readings: site, "Sensor", "order"), followed by its
    /// whole key through both apply roads: a small transaction (one statement) updating a non-key column beside
    /// TOASTed notes ('u'), deleting rows, inserting one whose site and "Sensor" equal a deleted row's, moving a key;
    /// then one larger than the one-statement road (staged). Keyed on one column, the deletes took every row of a site.
    /// </summary>
    [Fact]
    public async Task A_table_keyed_on_three_columns_is_followed_by_its_whole_key_through_both_apply_roads()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_composite", SyncTable.ToDescribe("readings"), 2_000);
        await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-readings-toast.sql"), [60]);
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);

        await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-readings-churn.sql"));
        await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-readings-bulk.sql"));
        await pair.DrainAsync();

        var status = await pair.StatusAsync();
        Assert.True(status.ChangesApplied > SomeService.Follow.ChangeApplier.OneStatementRows, $"{status}");
        await using var connection = new Npgsql.NpgsqlConnection(pair.SourceDb);
        await connection.OpenAsync();
        var table = pair.Table.DescribedAs(await SyncData.Postgres.Catalog.TableCatalog.ReadAsync(connection, "readings"));
        Assert.Equal(await Lab.ReadChecksumAsync(pair.SourceDb, table), await Lab.ReadChecksumAsync(pair.TargetDb, table));
        Assert.Equal(0L, (long)(await Lab.ScalarAsync(pair.TargetDb, "select count(*) from readings where note is null and \"order\" <= 60"))!);
    }

    /// <summary>
    /// --follow's one run (FollowRunner, as the runner runs it) on a folder table: readings under its own pgbench load
    /// (its folder's follow.pgbench.sql), followed by NpgsqlReplication, verified by the runner's checksum, every kind of
    /// change written as its header asks and the lag sampled by readings' whole key; nothing left behind. The polled change log says why
    /// it cannot follow readings.
    /// </summary>
    [Fact]
    public async Task The_runner_follows_a_folder_table_under_its_own_write_load_verified_with_every_kind_of_change()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_runner_readings", SyncTable.ToDescribe("readings"), 2_000);
        await Lab.ScalarAsync(pair.SourceDb, SyncDataBenchmark.Runner.Follow.FollowSql.Read("prepare-source.sql"));
        await Lab.ScalarAsync(pair.TargetDb, SyncDataBenchmark.Runner.Follow.FollowSql.Read("prepare-target.sql"));
        await using var connection = new Npgsql.NpgsqlConnection(pair.SourceDb);
        await connection.OpenAsync();
        var table = pair.Table.DescribedAs(await SyncData.Postgres.Catalog.TableCatalog.ReadAsync(connection, "readings"));
        var runner = new SyncDataBenchmark.Runner.Follow.FollowRunner(new SyncDataBenchmark.Runner.Follow.FollowContext(pair.SourceDb, pair.TargetDb, pair.SomeService, null), output.WriteLine);

        var run = await runner.RunAsync(new SyncDataBenchmark.Runner.Follow.NpgsqlReplicationMechanism(), table, 200, 4, CancellationToken.None);

        Assert.True(run.Verified, run.Error);
        Assert.Null(run.LeftBehind);
        Assert.Null(run.ChangeLogTriggers);
        // The load does what its header says: each kind at least 0.4 of the rows asked per transaction (about 290
        // transactions: a kind's count falls that low by chance far less than once in a million).
        var (asked, achieved, transactions) = (run.MixAsked!, run.MixAchieved!, (double)run.PgbenchTransactions!);
        Assert.True(achieved.Inserted >= 0.4 * asked.Inserted * transactions && achieved.Updated >= 0.4 * asked.Updated * transactions
            && achieved.Deleted >= 0.4 * asked.Deleted * transactions, $"asked {asked} a transaction, {transactions} transactions; achieved {achieved}");
        Assert.True(run.Lag is { Count: > 0 }, $"{run.Lag}");
        Assert.Contains("change log", new SyncDataBenchmark.Runner.Follow.ChangeLogPollMechanism().WhyNot(table));
    }

    private const string TeamTable = "\"Team Sales\".\"Order Lines\"";

    /// <summary>
    /// --follow on a user's table checks the role's rights before installing anything, and names each one missing: one
    /// scratch database of a team's table, roles lacking REPLICATION, SELECT, ownership, CREATE on the database, and a
    /// publication that is not there (Fixtures/replication-own-roles.sql). wal_level is the cluster's (logical here).
    /// </summary>
    [Theory]
    [InlineData("follow_owner", null, "")]
    [InlineData("follow_replicator", "team_lines", "")]
    [InlineData("follow_replicator", null, "does not own|may not CREATE")]
    [InlineData("follow_reader", null, "neither REPLICATION|does not own|may not CREATE")]
    [InlineData("follow_nobody", null, "neither REPLICATION|may not SELECT|does not own|may not CREATE")]
    [InlineData("follow_replicator", "no_such_publication", "publication no_such_publication does not exist or does not publish")]
    public async Task Following_a_users_table_names_each_right_its_role_lacks_before_installing_anything(string role, string? publication, string missing)
    {
        var owner = await UsersDatabaseAsync("repl_rights");
        var table = await OwnTableSource.DescribeAsync(owner, TeamTable, _ => { }, CancellationToken.None);
        var asRole = new Npgsql.NpgsqlConnectionStringBuilder(owner) { Username = role }.ConnectionString;

        var found = await SyncDataBenchmark.Runner.Follow.OwnTableRights.MissingAsync(OwnTableSource.ReadOnly(asRole), table.SqlName, publication, CancellationToken.None);

        var expected = missing.Split('|', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(found.Count == expected.Length && expected.All(e => found.Any(f => f.Contains(e, StringComparison.Ordinal))),
            $"expected [{string.Join("; ", expected)}], found [{string.Join("; ", found)}]");
        Assert.Equal(0L, (long)(await Lab.ScalarAsync(owner, "select count(*) from pg_replication_slots where database = current_database()"))!);
    }

    /// <summary>
    /// --follow on a user's table by opt-in, as FollowCommand runs it: the lab's reads through a read-only connection,
    /// SyncDataSource as the role given; with --follow-install (the owner) a publication and a slot made, with
    /// --follow-publication (a role with REPLICATION and SELECT only) the user's publication used and only the slot made.
    /// The lab writes nothing; the user's own traffic (the test's updates, as the owner) is followed, its lag reported,
    /// the target verified equal; afterwards no slot or publication of the lab's is left, and the user's is still there.
    /// </summary>
    [Theory]
    [InlineData("follow_owner", null)]
    [InlineData("follow_replicator", "team_lines")]
    public async Task Following_a_users_table_by_opt_in_verifies_its_own_traffic_and_leaves_nothing_behind(string role, string? publication)
    {
        var owner = await UsersDatabaseAsync("repl_own_" + role);
        var asRole = new Npgsql.NpgsqlConnectionStringBuilder(owner) { Username = role }.ConnectionString;
        var table = await OwnTableSource.DescribeAsync(OwnTableSource.ReadOnly(asRole), TeamTable, _ => { }, CancellationToken.None);
        var targetDb = await ScratchDatabase.RecreateAsync(lab.Postgres, "repl_own_target");
        await OwnTableSource.CreateTargetAsync(targetDb, table, _ => { }, CancellationToken.None);
        await Lab.ScalarAsync(targetDb, SyncDataBenchmark.Runner.Follow.FollowSql.Read("prepare-target.sql"));
        Assert.Empty(await SyncDataBenchmark.Runner.Follow.OwnTableRights.MissingAsync(OwnTableSource.ReadOnly(asRole), table.SqlName, publication, CancellationToken.None));
        await using var pair = FollowedPair.Over(lab, "repl_own_pair", table, asRole, targetDb);
        var context = new SyncDataBenchmark.Runner.Follow.FollowContext(OwnTableSource.ReadOnly(asRole), targetDb, pair.SomeService, null) { UsersDatabase = true, Publication = publication, DropsOn = asRole };
        var runner = new SyncDataBenchmark.Runner.Follow.FollowRunner(context, output.WriteLine);

        var following = runner.RunAsync(new SyncDataBenchmark.Runner.Follow.NpgsqlReplicationMechanism(), table, 0, 4, CancellationToken.None);
        for (var order = 1; order <= 60 && !following.IsCompleted; order++)
        {
            await Lab.ScalarAsync(new Npgsql.NpgsqlConnectionStringBuilder(owner) { Username = "follow_owner" }.ConnectionString, Fixture("replication-own-traffic.sql"), [(long)order]);
            await Task.Delay(50);
        }

        var run = await following;
        Assert.True(run.Verified, run.Error);
        Assert.True(run.Lag is { Count: > 0 }, $"{run.Lag}");
        Assert.Null(run.LeftBehind);
        Assert.Null(run.PgbenchTransactions);
        Assert.Equal("0 0", (string)(await Lab.ScalarAsync(owner,
            "select (select count(*) from pg_replication_slots where database = current_database()) || ' ' || (select count(*) from pg_publication where pubname like 'syncdata%')"))!);
        Assert.Equal(1L, (long)(await Lab.ScalarAsync(owner, "select count(*) from pg_publication where pubname = 'team_lines'"))!);
    }

    /// <summary>A user's database of its own on the lab's cluster: a team's table of 2,004 rows and the roles of replication-own-roles.sql; the superuser's connection.</summary>
    private async Task<string> UsersDatabaseAsync(string name)
    {
        // A slot an earlier, broken run left would pin the database.
        await Lab.ScalarAsync(lab.Postgres.ConnectionString("postgres"), "select count(pg_drop_replication_slot(slot_name)) from pg_replication_slots where database = $1 and not active", [name]);
        await Lab.ScalarAsync(lab.Postgres.ConnectionString("postgres"), $"drop database if exists {name} with (force)");
        await Lab.ScalarAsync(lab.Postgres.ConnectionString("postgres"), $"create database {name}");
        var owner = lab.Postgres.ConnectionString(name) + ";Pooling=false";
        foreach (var script in new[] { "team-table.sql", "team-table-rows.sql", "replication-own-roles.sql" })
        {
            await Lab.ScalarAsync(owner, Fixture(script));
        }

        return owner;
    }

    [Fact]
    public async Task A_column_added_on_the_source_stops_the_follower_naming_the_DDL_change_and_leaves_no_slot()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_ddl", SyncTable.Users, 100);
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);

        await Lab.ScalarAsync(pair.SourceDb, "alter table users add column nickname text; update users set nickname = 'x' where id in (select id from users limit 1)");
        var failed = await pair.WaitForAsync(s => s.State == FollowStatus.Failed);

        Assert.Contains("a DDL change on the source table", failed.Error);
        Assert.Equal(HttpStatusCode.OK, await pair.StopAsync(drop: true));
        Assert.Equal((0L, 0L), await pair.LeftOnSourceAsync());
    }

    [Fact]
    public async Task Stopping_with_drop_leaves_no_slot_or_publication_and_a_quiet_table_still_lets_the_slot_advance()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_slot", SyncTable.Users, 100);
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);
        Assert.Equal((1L, 1L), await pair.LeftOnSourceAsync());

        // Writes to another table only: the slot advances past them on the heartbeats SomeService acknowledges.
        await Lab.ScalarAsync(pair.SourceDb, "create table noise as select g from generate_series(1, 100000) g");
        await pair.DrainAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(HttpStatusCode.OK, await pair.StopAsync(drop: true));
        Assert.Equal((0L, 0L), await pair.LeftOnSourceAsync());
    }

    /// <summary>
    /// An exit path the other drops do not take: stopped with drop while the first copy is under way (the target's users
    /// locked, so the copy's truncate waits inside its transaction, the source's stream open on the new slot): the stop
    /// answers, and neither the slot nor the publication is left on the source.
    /// </summary>
    [Fact]
    public async Task Stopping_with_drop_during_the_first_copy_leaves_no_slot_or_publication()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_copy_drop", SyncTable.Users, 1_000);
        await using (await LockTargetUsersAsync(pair.TargetDb))
        {
            await pair.StartAsync();
            await WaitForLockWaiterAsync(pair.TargetDb);
            Assert.Equal(FollowStatus.Copying, (await pair.StatusAsync()).State);
            Assert.Equal((1L, 1L), await pair.LeftOnSourceAsync());

            Assert.Equal(HttpStatusCode.OK, await pair.StopAsync(drop: true));
        }

        Assert.Equal((0L, 0L), await pair.LeftOnSourceAsync());
    }

    /// <summary>
    /// One source transaction of 200,000 rows (REPL_BIG_ROWS overrides, e.g. 1000000): decoded after its commit
    /// (protocol 1, not streamed in progress), sent whole and applied as one target transaction with its end LSN.
    /// </summary>
    [Fact]
    public async Task A_large_source_transaction_goes_through_as_one_target_transaction()
    {
        var rows = int.TryParse(Environment.GetEnvironmentVariable("REPL_BIG_ROWS"), out var asked) ? asked : 200_000;
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_big", SyncTable.Users, 1_000);
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);

        var clock = System.Diagnostics.Stopwatch.StartNew();
        await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-big-transaction.sql"), [rows]);
        var committed = clock.Elapsed;
        var applied = await pair.WaitForAsync(s => s.TransactionsApplied >= 1, TimeSpan.FromMinutes(10));
        output.WriteLine($"{rows:N0} rows: source commit {committed.TotalSeconds:0.0} s, applied {clock.Elapsed.TotalSeconds:0.0} s after the statement began; lag {applied.LagMs:N0} ms");

        Assert.Equal(1, applied.TransactionsApplied);
        Assert.Equal(rows, applied.ChangesApplied);
        await pair.DrainAsync();
        Assert.Equal(await Lab.ReadChecksumAsync(pair.SourceDb, SyncTable.Users), await Lab.ReadChecksumAsync(pair.TargetDb, SyncTable.Users));
    }

    /// <summary>
    /// Where each applied transaction's lag went (GET /follow/{table}/stages; docs/replication.md): one sample per source
    /// transaction, each stage non-negative, and their sum bracketing the lag the WAL itself gives (the --follow runner's
    /// measure): the target's commit record of the row lies after its batch's transaction began (decode + relay + queue)
    /// and before its commit returned (all four). Causal bounds on one clock, not timing thresholds.
    /// </summary>
    [Fact]
    public async Task Each_applied_transaction_says_where_its_lag_went_and_its_stages_bracket_the_lag_timed_from_the_WAL()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_stages", SyncTable.Users, 100);
        await Lab.ScalarAsync(pair.TargetDb, "create extension if not exists pg_walinspect");
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);
        var walStart = (string)(await Lab.ScalarAsync(pair.TargetDb, "select pg_current_wal_insert_lsn()::text"))!;
        var updated = new List<string>();
        for (var i = 0; i < 20; i++)
        {
            // Each its own source transaction of one row: the row's version times that transaction.
            updated.Add((string)(await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-update-nth.sql"), [i]))!);
        }

        await pair.WaitForAsync(s => s.TransactionsApplied >= updated.Count);
        // The follower commits without waiting for the flush, and pg_walinspect reads only flushed WAL: wait for it.
        await SyncDataBenchmark.Runner.Follow.FollowLag.FlushedPositionAsync(pair.TargetDb, CancellationToken.None);
        var stages = (await pair.SomeService.GetFromJsonAsync($"{SyncRoutes.Follow}/{pair.Table.Name}/{SyncRoutes.Stages}", SyncJsonContext.Default.FollowStages))!;
        var committed = await KeyTimesAsync(pair.SourceDb, Fixture("replication-commit-times.sql"), updated.ToArray());
        var applied = await KeyTimesAsync(pair.TargetDb, Fixture("replication-stage-times.sql"), walStart);

        Assert.Equal(updated.Count, stages.Samples.Count);
        Assert.Equal(0, stages.Dropped);
        // What made users' apply slow at 100 rows/s (docs/replication.md, "Measured so far"): a staging table never analyzed.
        Assert.True((bool)(await Lab.ScalarAsync(pair.TargetDb, Fixture("replication-staging-analyzed.sql")))!, "The follower's staging table was never analyzed.");
        foreach (var id in updated)
        {
            var sample = Assert.Single(stages.Samples, s => Math.Abs((s.CommittedAt - DateTimeOffset.UnixEpoch).TotalMilliseconds - committed[id]) < 0.002);
            Assert.True(sample is { DecodeMs: >= 0, RelayMs: >= 0, QueueMs: >= 0, ApplyMs: >= 0, AckMs: >= 0, BatchTransactions: >= 1, BatchChanges: >= 1 }, $"{sample}");
            var beforeApply = sample.DecodeMs + sample.RelayMs + sample.QueueMs;
            Assert.InRange(applied[id] - committed[id], beforeApply, beforeApply + sample.ApplyMs);
        }
    }

    /// <summary>Each row's key and a time (ms), as <paramref name="sql"/> reads them with the one parameter.</summary>
    private static async Task<Dictionary<string, double>> KeyTimesAsync(string connectionString, string sql, object parameter)
    {
        await using var connection = new Npgsql.NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new Npgsql.NpgsqlCommand(sql, connection) { Parameters = { new() { Value = parameter } } };
        await using var reader = await command.ExecuteReaderAsync();
        var times = new Dictionary<string, double>(StringComparer.Ordinal);
        while (await reader.ReadAsync())
        {
            times[reader.GetString(0)] = reader.GetDouble(1);
        }

        return times;
    }

    /// <summary>
    /// The lab's pgbench write load (sql/follow/&lt;table&gt;.pgbench.sql: inserts, updates, deletes; on orders half the
    /// updates leave the TOASTed columns unchanged) for 3 s at 200 transactions/s over 2 clients; once it stops and the
    /// slot confirms the source's WAL position, the target equals the source.
    /// </summary>
    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task The_pgbench_write_load_leaves_the_target_equal_to_the_source(string tableName)
    {
        var table = SyncTable.Named(tableName);
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_pgbench_" + tableName, table, 3_000);
        if (table == SyncTable.Orders)
        {
            await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-toast.sql"), [300]);
        }

        // The extensions the runner installs on the source before a load (users samples rows by tsm_system_rows).
        await Lab.ScalarAsync(pair.SourceDb, SyncDataBenchmark.Runner.Follow.FollowSql.Read("prepare-source.sql"));
        await pair.StartAsync();
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);
        var database = new Npgsql.NpgsqlConnectionStringBuilder(pair.SourceDb);
        // The script's own header says what it needs from the source (orders: max_id), as the runner reads it.
        var script = SyncDataBenchmark.Runner.Follow.FollowScript.Of(table);
        var (exit, stdout, stderr) = await Tools.RunAsync("pgbench",
            ["-n", "-f", script.Path, .. await script.DefineArgumentsAsync(pair.SourceDb, CancellationToken.None), "-R", "200", "-T", "3", "-c", "2",
             "-h", database.Host!, "-p", database.Port.ToString(System.Globalization.CultureInfo.InvariantCulture), "-U", database.Username!, database.Database!],
            Lab.RepositoryRoot, "postgresql-client");
        Assert.True(exit == 0, stderr + stdout);
        await pair.DrainAsync();

        var status = await pair.StatusAsync();
        output.WriteLine($"{tableName}: {stdout.Split('\n').FirstOrDefault(l => l.StartsWith("number of transactions actually processed", StringComparison.Ordinal))}; follower {status}");
        Assert.True(status.TransactionsApplied > 100, $"{status}");
        Assert.Equal(await Lab.ReadChecksumAsync(pair.SourceDb, table), await Lab.ReadChecksumAsync(pair.TargetDb, table));
        // The lag and the applied LSN as metrics, at SomeService's Prometheus endpoint.
        var metrics = await pair.SomeService.GetStringAsync("metrics");
        Assert.Matches($"(?m)^sync_follow_changes_total\\{{[^}}]*table=\"{tableName}\"", metrics);
        Assert.Matches($"(?m)^sync_follow_applied_lsn\\{{[^}}]*table=\"{tableName}\"", metrics);
        Assert.Matches($"(?m)^sync_follow_lag_seconds_bucket\\{{[^}}]*table=\"{tableName}\"", metrics);
        Assert.Matches($"(?m)^sync_follow_stage_seconds_bucket\\{{(?=[^}}]*stage=\"apply\")(?=[^}}]*table=\"{tableName}\")", metrics);
    }

    /// <summary>
    /// The --follow matrix's measurement window (SomeService's /follow-window, SyncDataSource's beside it): while it is
    /// open a sync run is refused naming it, and so is a second window; closed, it answers both services' figures, and
    /// sync runs start again.
    /// </summary>
    [Fact]
    public async Task A_follow_window_refuses_a_sync_run_and_a_second_window_naming_itself_and_answers_both_services_figures()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_window", SyncTable.Users, 100);
        var someService = new SomeServiceClient(pair.SomeService);
        using (var opened = await pair.SomeService.PostAsync(SyncRoutes.FollowWindow, content: null))
        {
            Assert.Equal(HttpStatusCode.Created, opened.StatusCode);
        }

        using (var refused = await someService.TriggerAsync("NpgsqlCopy", "NpgsqlCopy", wait: true, table: "users"))
        {
            var why = await refused.Content.ReadAsStringAsync();
            Assert.True(refused.StatusCode == HttpStatusCode.Conflict && why.Contains("Follow window", StringComparison.Ordinal), $"{refused.StatusCode}: {why}");
        }

        using (var again = await pair.SomeService.PostAsync(SyncRoutes.FollowWindow, content: null))
        {
            var why = await again.Content.ReadAsStringAsync();
            Assert.True(again.StatusCode == HttpStatusCode.Conflict && why.Contains("Follow window", StringComparison.Ordinal), $"{again.StatusCode}: {why}");
        }

        using (var closed = await pair.SomeService.DeleteAsync(SyncRoutes.FollowWindow))
        {
            var figures = await closed.Content.ReadFromJsonAsync(SyncJsonContext.Default.FollowWindowFigures);
            Assert.NotNull(figures);
            Assert.True(figures.SyncDataSource is not null, figures.SyncDataSourceMissing);
            Assert.True(figures.SomeService.AllocationTickBytes is not null, figures.SomeService.AllocationTickUnavailable);
        }

        using (var run = await someService.TriggerAsync("NpgsqlCopy", "NpgsqlCopy", wait: true, table: "users"))
        {
            Assert.Equal(HttpStatusCode.OK, run.StatusCode);
        }

        using var none = await pair.SomeService.DeleteAsync(SyncRoutes.FollowWindow);
        Assert.Equal(HttpStatusCode.NotFound, none.StatusCode);
    }

    /// <summary>The target's audit of row versions installed (replication-audit.sql), then the pair following in batches of 100.</summary>
    private static async Task FollowAuditedAsync(FollowedPair pair)
    {
        await Lab.ScalarAsync(pair.TargetDb, Fixture("replication-audit.sql"));
        await pair.StartAsync(batch: 100);
        await pair.WaitForAsync(s => s.State == FollowStatus.Following);
    }

    /// <summary>Equal by count and checksum, and no row version written twice.</summary>
    private static async Task AssertEqualAndOnceAsync(FollowedPair pair)
    {
        Assert.Equal(await Lab.ReadChecksumAsync(pair.SourceDb, pair.Table), await Lab.ReadChecksumAsync(pair.TargetDb, pair.Table));
        Assert.Equal(0L, (long)(await Lab.ScalarAsync(pair.TargetDb, Fixture("replication-duplicates.sql")))!);
    }

    /// <summary>The target's users locked (share mode) in an open transaction, until the connection returned is disposed.</summary>
    private static async Task<Npgsql.NpgsqlConnection> LockTargetUsersAsync(string targetDb)
    {
        var blocker = new Npgsql.NpgsqlConnection(targetDb);
        await blocker.OpenAsync();
        await using var lockTable = new Npgsql.NpgsqlCommand("begin; lock table users in share mode", blocker);
        await lockTable.ExecuteNonQueryAsync();
        return blocker;
    }

    /// <summary>Until a backend of the target waits for a lock on users (the follower's batch, behind the test's lock): its pid.</summary>
    private static async Task<int> WaitForLockWaiterAsync(string targetDb)
    {
        object? pid = null;
        await WaitUntilAsync(async () => (pid = await Lab.ScalarAsync(targetDb, Fixture("replication-lock-waiter.sql"))) is int,
            "The follower never waited on the locked table.");
        return (int)pid!;
    }

    /// <summary>
    /// Until transactions begun after the batch was seen waiting (so not in it) were decoded and sent on the slot's
    /// stream: changes delivered past the batch in flight, none of them committed on the target.
    /// </summary>
    private static async Task WaitForStreamPastAsync(FollowedPair pair, WriteLoad load)
    {
        var after = load.Transactions + 10;
        await WaitUntilAsync(() => Task.FromResult(load.Transactions >= after), "The write load stopped writing.");
        var lsn = (string)(await Lab.ScalarAsync(pair.SourceDb, "select pg_current_wal_lsn()::text"))!;
        await WaitUntilAsync(async () => (bool)(await Lab.ScalarAsync(pair.SourceDb, Fixture("replication-sent-past.sql"), [lsn, pair.Slot]))!,
            $"The slot's stream never sent the source's WAL up to {lsn}.");
    }

    /// <summary>Polls until <paramref name="done"/>; a minute without it is a state never reached, not a slow machine.</summary>
    private static async Task WaitUntilAsync(Func<Task<bool>> done, string never)
    {
        var until = DateTime.UtcNow + TimeSpan.FromMinutes(1);
        while (!await done())
        {
            Assert.True(DateTime.UtcNow < until, never);
            await Task.Delay(50);
        }
    }
}
