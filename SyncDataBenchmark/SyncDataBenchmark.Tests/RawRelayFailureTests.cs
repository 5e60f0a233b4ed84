using System.IO.Pipelines;
using Npgsql;
using SomeService;
using SomeService.Insert;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Each writer that relays the source's COPY bytes, called directly on the real target inside a transaction the test
/// holds, as the runner holds its run's: Npgsql's raw COPY stream completes (commits) the COPY on Dispose, so a source
/// that breaks mid-COPY must leave it cancelled, never completed, even when what arrived so far would be a valid COPY;
/// bytes PostgreSQL refuses fail the write. Either way, rolled back, the target is as before, its primary key included.
/// </summary>
[Collection(MatrixCollection.Name)]
public sealed class RawRelayFailureTests(MatrixLab lab)
{
    public static TheoryData<string> CopyBytesWriters() =>
        new(ApproachRegistry.Catalog.Inserts.Where(i => ApproachRegistry.Catalog[i].CopyBytes).Select(i => i.Name));

    [Theory]
    [MemberData(nameof(CopyBytesWriters))]
    public async Task A_source_that_breaks_mid_copy_leaves_the_COPY_cancelled_not_completed(string insert)
    {
        // The header and one whole row, without the trailer: completed, PostgreSQL would take it as a COPY of one row.
        var oneRow = await OneSourceRowWithoutTrailerAsync();
        var pipe = new Pipe();
        await pipe.Writer.WriteAsync(oneRow);
        await pipe.Writer.CompleteAsync(new IOException("the source went away mid-COPY"));

        await WriteAndRollBackAsync(insert, pipe.Reader.AsStream(), async (write, connection, transaction) =>
        {
            var error = await Assert.ThrowsAsync<IOException>(write);
            Assert.Contains("the source went away", error.Message);
            // Cancelled: the transaction is aborted. Completed, the one row would be counted here.
            await using var count = new NpgsqlCommand("select count(*) from users", connection, transaction);
            var aborted = await Assert.ThrowsAsync<PostgresException>(() => count.ExecuteScalarAsync());
            Assert.Equal(PostgresErrorCodes.InFailedSqlTransaction, aborted.SqlState);
        });
    }

    [Theory]
    [MemberData(nameof(CopyBytesWriters))]
    public async Task Bytes_that_are_not_binary_COPY_fail_the_write(string insert)
    {
        var garbage = new MemoryStream("id,name\n1,not binary COPY\n"u8.ToArray());

        await WriteAndRollBackAsync(insert, garbage, async (write, _, _) =>
        {
            var error = await Assert.ThrowsAsync<PostgresException>(write);
            Assert.Equal(PostgresErrorCodes.BadCopyFileFormat, error.SqlState);
        });
    }

    /// <summary>Runs <paramref name="insert"/>'s writer as the runner does (truncate first, one transaction), hands the write to <paramref name="check"/>, rolls back, and checks the target is as before.</summary>
    private async Task WriteAndRollBackAsync(string insert, Stream body, Func<Func<Task>, NpgsqlConnection, NpgsqlTransaction, Task> check)
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadSummaryAsync(lab.SourceDb));
        var before = await Lab.ReadSummaryAsync(lab.TargetDb);
        var writer = (ICopyBytesWriter)Activator.CreateInstance(ApproachRegistry.Writers[new InsertApproach(insert)])!;

        await using (var connection = new NpgsqlConnection(lab.TargetDb + ";Pooling=false"))
        {
            await connection.OpenAsync();
            await using var transaction = await connection.BeginTransactionAsync();
            await using (var truncate = new NpgsqlCommand($"truncate {UsersTable.Name}", connection, transaction))
            {
                await truncate.ExecuteNonQueryAsync();
            }

            var target = new WriteTarget(connection, transaction, BatchSize: 1000, CommandTimeoutSeconds: 60);
            await check(() => writer.WriteAsync(body, target, CancellationToken.None), connection, transaction);
            await transaction.RollbackAsync();
        }

        Assert.Equal(before, await Lab.ReadSummaryAsync(lab.TargetDb));
        Assert.Equal(PrimaryKeys.Expected, await PrimaryKeys.OfUsersAsync(lab.TargetDb));
    }

    private async Task<byte[]> OneSourceRowWithoutTrailerAsync()
    {
        await using var connection = new NpgsqlConnection(lab.SourceDb);
        await connection.OpenAsync();
        var bytes = new MemoryStream();
        await using (var copy = await connection.BeginRawBinaryCopyAsync($"COPY (select {UsersTable.Columns} from {UsersTable.Name} order by id limit 1) TO STDOUT (FORMAT binary)"))
        {
            await copy.CopyToAsync(bytes);
        }

        // The binary COPY trailer is the 16-bit field count -1.
        var all = bytes.ToArray();
        Assert.Equal([0xFF, 0xFF], all[^2..]);
        return all[..^2];
    }
}
