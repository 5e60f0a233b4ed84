using Npgsql;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>What the tuned writers drop inside the run's transaction is back after every run, committed or rolled back.</summary>
internal static class PrimaryKeys
{
    /// <summary>The target's primary key as "name definition", or null: sql/schema.sql makes it "users_pkey PRIMARY KEY (id)".</summary>
    public static async Task<string?> OfUsersAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(connectionString + ";Pooling=false");
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(
            "select conname || ' ' || pg_get_constraintdef(oid) from pg_constraint where conrelid = 'users'::regclass and contype = 'p'", connection);
        return (string?)await command.ExecuteScalarAsync();
    }

    public const string Expected = "users_pkey PRIMARY KEY (id)";
}

[Collection(MatrixCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class TunedWriterTests(MatrixLab lab)
{
    [Theory]
    [InlineData("NpgsqlCopy", "NpgsqlCopyTuned")]
    [InlineData("EFStream", "NpgsqlCopyTuned")]
    [InlineData("NpgsqlCopy", "NpgsqlCopyRawTuned")]
    public async Task A_verified_tuned_run_commits_with_the_primary_key_re_added(string fetch, string insert)
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));

        var run = await lab.SyncAsync($"{fetch}", $"{insert}");

        Assert.Equal(RunStatus.Succeeded, run.Status);
        Assert.True(run.Verified, run.Error);
        Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb), await Lab.ReadChecksumAsync(lab.TargetDb));
        Assert.Equal(PrimaryKeys.Expected, await PrimaryKeys.OfUsersAsync(lab.TargetDb));
        // Written by COPY … FREEZE (PostgreSQL 14+ sets the pages' all-frozen bits): the tuned path, not a plain COPY.
        Assert.Equal((0L, true), await PagesNotFrozenAsync(lab.TargetDb));
    }

    /// <summary>How many of the target's users pages are not all-frozen, and whether it has any (pg_visibility).</summary>
    private static async Task<(long NotFrozen, bool AnyPages)> PagesNotFrozenAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(connectionString + ";Pooling=false");
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(
            "create extension if not exists pg_visibility; select count(*) filter (where not all_frozen), count(*) > 0 from pg_visibility_map('users')", connection);
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        return (reader.GetInt64(0), reader.GetBoolean(1));
    }
}

/// <summary>
/// A source whose table has lost its primary key and holds one id twice: a tuned writer copies both rows, then
/// cannot re-add the target's key. The run must fail and roll back the key's drop with everything else.
/// </summary>
public sealed class DuplicateIdLab : LabFixture
{
    protected override long SeedRows => 1_009;

    protected override async Task PrepareDatabasesAsync()
    {
        await using var connection = new NpgsqlConnection(SourceDb);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(
            "alter table users drop constraint users_pkey; insert into users select * from users order by id limit 1", connection);
        await command.ExecuteNonQueryAsync();
        // The target's previous contents: different from the source, and what a failed run must leave.
        await SqlScripts.ApplySchemaAsync(TargetDb, withGenerator: true);
        await SqlScripts.SeedAsync(TargetDb, 17);
    }
}

[Trait("Tier", "Lab")]
public sealed class TunedWriterRollbackTests(DuplicateIdLab lab) : IClassFixture<DuplicateIdLab>
{
    [Theory]
    [InlineData("NpgsqlCopyTuned")]
    [InlineData("NpgsqlCopyRawTuned")]
    public async Task A_tuned_run_that_cannot_re_add_the_primary_key_fails_and_the_key_is_still_there(string insert)
    {
        var before = await Lab.ReadChecksumAsync(lab.TargetDb);

        var run = await lab.SyncAsync("NpgsqlCopy", $"{insert}");

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("could not create unique index", run.Error);
        Assert.Equal(PrimaryKeys.Expected, await PrimaryKeys.OfUsersAsync(lab.TargetDb));
        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
    }
}
