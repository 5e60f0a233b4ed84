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
[Trait("Tier", "Lab")]
public sealed class RawRelayFailureTests(MatrixLab lab)
{
    public static TheoryData<string> CopyBytesWriters() =>
        // The relays that reload; the merging relay's failures are MergeWriterTests'.
        new(ApproachRegistry.Catalog.Inserts.Where(i => ApproachRegistry.Catalog[i] is { CopyBytes: true, Merges: false }).Select(i => i.Name));

    [Theory]
    [MemberData(nameof(CopyBytesWriters))]
    public async Task A_source_that_breaks_mid_copy_leaves_the_COPY_cancelled_not_completed(string insert)
    {
        // The header and one whole row, without the trailer: completed, PostgreSQL would take it as a COPY of one row.
        var oneRow = await OneSourceRowWithoutTrailerAsync();

        await WriteAndRollBackAsync(insert, new BreakingStream(oneRow), async (write, connection, transaction) =>
        {
            var error = await Assert.ThrowsAsync<IOException>(write);
            Assert.Contains("the source went away", error.Message);
            // Cancelled: the transaction is aborted. Completed, the one row would be counted here.
            await using var count = new NpgsqlCommand("select count(*) from users", connection, transaction);
            object? rows = null;
            var counting = await Record.ExceptionAsync(async () => rows = await count.ExecuteScalarAsync());
            Assert.True(counting is PostgresException { SqlState: PostgresErrorCodes.InFailedSqlTransaction },
                $"the COPY was not cancelled: {counting?.Message ?? $"completed, {rows} row(s) in the transaction"}");
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
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        var before = await Lab.ReadChecksumAsync(lab.TargetDb);
        var writer = (ICopyBytesWriter)Activator.CreateInstance(ApproachRegistry.Writers[new InsertApproach(insert)])!;

        await using (var connection = new NpgsqlConnection(lab.TargetDb + ";Pooling=false"))
        {
            await connection.OpenAsync();
            await using var transaction = await connection.BeginTransactionAsync();
            await using (var truncate = new NpgsqlCommand($"truncate {SyncTable.Users.Name}", connection, transaction))
            {
                await truncate.ExecuteNonQueryAsync();
            }

            var target = new WriteTarget(SyncTable.Users, connection, transaction, BatchSize: 1000, CommandTimeoutSeconds: 60);
            await check(() => writer.WriteAsync(body, target, CancellationToken.None), connection, transaction);
            await transaction.RollbackAsync();
        }

        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
        Assert.Equal(PrimaryKeys.Expected, await PrimaryKeys.OfUsersAsync(lab.TargetDb));
    }

    private async Task<byte[]> OneSourceRowWithoutTrailerAsync()
    {
        await using var connection = new NpgsqlConnection(lab.SourceDb);
        await connection.OpenAsync();
        var bytes = new MemoryStream();
        await using (var copy = await connection.BeginRawBinaryCopyAsync($"COPY (select {SyncTable.Users.Columns} from {SyncTable.Users.Name} order by id limit 1) TO STDOUT (FORMAT binary)"))
        {
            await copy.CopyToAsync(bytes);
        }

        // The binary COPY trailer is the 16-bit field count -1.
        var all = bytes.ToArray();
        Assert.Equal([0xFF, 0xFF], all[^2..]);
        return all[..^2];
    }

    /// <summary>
    /// A source body that delivers its bytes, then breaks as a dropped connection does. (A Pipe completed with an
    /// exception throws before its buffered bytes are read, so it cannot stand for this.)
    /// </summary>
    private sealed class BreakingStream(byte[] bytes) : Stream
    {
        private int _position;

        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => false;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            if (_position == bytes.Length)
            {
                throw new IOException("the source went away mid-COPY");
            }

            var n = Math.Min(buffer.Length, bytes.Length - _position);
            bytes.AsSpan(_position, n).CopyTo(buffer);
            _position += n;
            return n;
        }

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken ct = default) => ValueTask.FromResult(Read(buffer.Span));

        public override void Flush() => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
