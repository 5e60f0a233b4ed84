using Npgsql;
using SomeService.Fetch;
using SomeService.Insert;
using SomeService.Tables;
using SyncData.Harness;
using SyncData.Postgres;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The linq2db and COPY merge writers, each called directly on a real target inside a transaction the test holds, as
/// the runner holds its run's: a target that fell behind the source (rows updated, gone, and rows the source never had;
/// the awkward users and orders among them) is brought equal to the source, by the whole table or by its changes, and a
/// merge that fails after writing leaves the target exactly as it was once its transaction is rolled back.
/// </summary>
[Trait("Tier", "Lab")]
public sealed class MergeWriterTests(MergeWriterLab lab) : IClassFixture<MergeWriterLab>
{
    private static readonly Dictionary<string, ITableWriter> Writers = new()
    {
        ["Linq2DBMerge"] = new Linq2DBMergeWriter(),
        ["Linq2DBTempMerge"] = new Linq2DBTempMergeWriter(),
        ["NpgsqlCopyMerge"] = new NpgsqlCopyMergeWriter(),
        ["NpgsqlCopyRawMerge"] = new NpgsqlCopyRawMergeWriter(),
    };

    /// <summary>Every writer × table × scope (true: the whole table, as a full fetch delivers it; false: the changes).</summary>
    public static TheoryData<string, string, bool> Cases()
    {
        var cases = new TheoryData<string, string, bool>();
        foreach (var writer in Writers.Keys)
        {
            foreach (var table in SyncTable.All)
            {
                cases.Add(writer, table.Name, true);
                cases.Add(writer, table.Name, false);
            }
        }

        return cases;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task A_merge_brings_a_target_that_fell_behind_equal_to_the_source(string insert, string tableName, bool wholeTable)
    {
        var table = SyncTable.Named(tableName);
        var feed = await DriftAndFeedAsync(table, wholeTable);
        var source = await Lab.ReadChecksumAsync(lab.SourceDb, table);
        Assert.NotEqual(source, await Lab.ReadChecksumAsync(lab.TargetDb, table));

        await using var connection = await MergeWriterLab.OpenAsync(lab.TargetDb);
        await using var transaction = await connection.BeginTransactionAsync();
        var merged = await MergeAsync(insert, feed, new WriteTarget(table, connection, transaction, BatchSize: 101, CommandTimeoutSeconds: 60));

        Assert.True(merged is null || merged == feed.Rows, $"{insert} reported {merged} rows merged of {feed.Rows} handed");
        Assert.Equal(source, await connection.ReadChecksumAsync(table, transaction, CancellationToken.None));
        await using (var staging = new NpgsqlCommand($"select count(*) from pg_class where relnamespace = pg_my_temp_schema()", connection, transaction))
        {
            Assert.Equal(0L, (long)(await staging.ExecuteScalarAsync())!);
        }

        await transaction.CommitAsync();
        Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb, table));
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task A_merge_that_fails_after_writing_leaves_the_target_as_it_was(string insert, string tableName, bool wholeTable)
    {
        var table = SyncTable.Named(tableName);
        var feed = await DriftAndFeedAsync(table, wholeTable);
        var before = await Lab.ReadChecksumAsync(lab.TargetDb, table);

        await using (var connection = await MergeWriterLab.OpenAsync(lab.TargetDb))
        {
            await using var transaction = await connection.BeginTransactionAsync();
            // The deletes come after the inserts and updates in every merge writer: refusing them fails the merge once
            // everything else is written. Created in the transaction, the trigger goes with its rollback.
            await using (var refuse = new NpgsqlCommand(
                             "create function refuse_deletes() returns trigger language plpgsql as $$ begin raise exception 'deletes refused mid-merge'; end $$; " +
                             $"create trigger refuse_deletes before delete on {table.Name} for each statement execute function refuse_deletes()", connection, transaction))
            {
                await refuse.ExecuteNonQueryAsync();
            }

            var error = await Assert.ThrowsAsync<PostgresException>(() => MergeAsync(insert, feed, new WriteTarget(table, connection, transaction, BatchSize: 101, CommandTimeoutSeconds: 60)));
            Assert.Contains("deletes refused mid-merge", error.MessageText);
            await transaction.RollbackAsync();
        }

        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb, table));
    }

    /// <summary>
    /// A numeric .NET's decimal cannot hold: the raw merge carries it exactly (PostgreSQL parses the bytes); a merge fed
    /// rows never sees it, the row is refused by row, column and value as it is decoded, and nothing is written.
    /// </summary>
    [Theory]
    [InlineData("NaN")]
    [InlineData("0.00000000000000000000000000001")]
    public async Task A_numeric_beyond_decimal_crosses_the_raw_merge_exactly_and_is_refused_by_name_before_a_row_merge(string value)
    {
        var table = SyncTable.Orders;
        const long planted = 150;
        var original = (string)(await Lab.ScalarAsync(lab.SourceDb, "select exchange_rate::text from orders where id = $1", [planted]))!;
        await Lab.ScalarAsync(lab.SourceDb, "update orders set exchange_rate = $1::numeric where id = $2", [value, planted]);
        try
        {
            foreach (var insert in Writers.Keys)
            {
                var feed = await DriftAndFeedAsync(table, wholeTable: true);
                var before = await Lab.ReadChecksumAsync(lab.TargetDb, table);
                await using var connection = await MergeWriterLab.OpenAsync(lab.TargetDb);
                await using var transaction = await connection.BeginTransactionAsync();
                var merge = () => MergeAsync(insert, feed, new WriteTarget(table, connection, transaction, BatchSize: 101, CommandTimeoutSeconds: 60));
                if (Writers[insert] is ICopyBytesMergeWriter)
                {
                    await merge();
                    Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb, table), await connection.ReadChecksumAsync(table, transaction, CancellationToken.None));
                }
                else
                {
                    var error = await Record.ExceptionAsync(merge);
                    Assert.True(error?.ToString().Contains($"row {planted}: exchange_rate = {value}") == true, $"{insert}: {error}");
                }

                await transaction.RollbackAsync();
                Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb, table));
            }
        }
        finally
        {
            await Lab.ScalarAsync(lab.SourceDb, "update orders set exchange_rate = $1::numeric where id = $2", [original, planted]);
        }
    }

    /// <summary>What a merge is fed: the source's COPY body (whole, or the changed rows) and the scope that goes with it.</summary>
    private sealed record Feed(byte[] Body, long Rows, MergeScope Scope);

    private async Task<Feed> DriftAndFeedAsync(SyncTable table, bool wholeTable)
    {
        var (changed, deleted) = await lab.DriftTargetAsync(table);
        Assert.NotEmpty(deleted);
        return wholeTable
            ? new Feed(await lab.SourceCopyAsync(table, null), (await Lab.ReadChecksumAsync(lab.SourceDb, table)).Rows, MergeScope.WholeTable)
            : new Feed(await lab.SourceCopyAsync(table, changed), changed.Count, MergeScope.Changes(deleted));
    }

    /// <summary>Feeds <paramref name="insert"/> what it consumes: the body's rows (decoded as the NpgsqlCopy consumer decodes them) or the body itself.</summary>
    private static Task<long?> MergeAsync(string insert, Feed feed, WriteTarget target) =>
        Writers[insert] switch
        {
            IMergeWriter rows => IRowTable.Of(target.Table).Accept(new RowFeed(rows, feed, target)),
            ICopyBytesMergeWriter bytes => bytes.MergeAsync(new MemoryStream(feed.Body), feed.Scope, target, CancellationToken.None),
            var other => throw new InvalidOperationException($"{other.GetType().Name} is not a merge writer."),
        };

    private sealed record RowFeed(IMergeWriter Writer, Feed Feed, WriteTarget Target) : IRowTableVisitor<Task<long?>>
    {
        public Task<long?> Visit<TRow>(RowTable<TRow> table)
            where TRow : class =>
            Writer.MergeAsync(BinaryCopyReader.ReadAsync(new MemoryStream(Feed.Body), table, CancellationToken.None), Feed.Scope, table, Target, CancellationToken.None);
    }
}
