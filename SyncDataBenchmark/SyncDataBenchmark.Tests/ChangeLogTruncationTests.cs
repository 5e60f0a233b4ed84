using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// TRUNCATE removes rows without naming their keys, so the change log cannot hold its deletes: asking for changes since
/// a watermark taken before it fails, saying a full sync must run; since a watermark taken after it, the log answers
/// again. In a database of its own on the changes lab's cluster.
/// </summary>
[Collection(ChangesCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangeLogTruncationTests(ChangesLab lab) : IAsyncLifetime
{
    private const string Database = "change_log_truncation";

    private string Db => lab.Postgres.ConnectionString(Database) + ";Pooling=false";

    public async Task InitializeAsync()
    {
        await ScratchDatabase.RecreateAsync(lab.Postgres, Database);
        await SqlScripts.ApplyChangeTrackingAsync(Db);
    }

    public Task DisposeAsync() => Task.CompletedTask;

    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task Changes_since_a_watermark_before_a_truncate_are_refused_and_after_it_answered(string name)
    {
        var table = SyncTable.Named(name);
        await SqlScripts.SeedAsync(Db, table, 100);
        var before = (string)(await Lab.ScalarAsync(Db, "select pg_current_snapshot()::text"))!;
        await SqlScripts.SeedAsync(Db, table, 50); // seed_<table> truncates first

        foreach (var query in new[] { $"select count(*) from changed_{name}($1::pg_snapshot)", $"select count(*) from deleted_{name}($1::pg_snapshot)" })
        {
            var refused = await Assert.ThrowsAsync<PostgresException>(() => Lab.ScalarAsync(Db, query, [before]));
            Assert.Contains($"{name} was truncated after the watermark", refused.MessageText);
            Assert.Contains("a full sync must run first", refused.MessageText);
        }

        var after = (string)(await Lab.ScalarAsync(Db, "select pg_current_snapshot()::text"))!;
        await Lab.ScalarAsync(Db, $"delete from {name} where id in (select id from {name} order by id limit 3)");
        Assert.Equal(0L, await Lab.ScalarAsync(Db, $"select count(*) from changed_{name}($1::pg_snapshot)", [after]));
        Assert.Equal(3L, await Lab.ScalarAsync(Db, $"select count(*) from deleted_{name}($1::pg_snapshot)", [after]));
    }
}
