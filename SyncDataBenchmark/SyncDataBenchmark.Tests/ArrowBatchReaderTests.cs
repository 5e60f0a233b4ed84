using Apache.Arrow;
using Apache.Arrow.Ipc;
using SomeService.Fetch;
using SyncData.Arrow;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: ArrowStream's wire read back by SomeService's own reader, from Arrow IPC streams written here with the
/// users mapping (SyncData.Arrow) and Apache.Arrow's writer, whole, cut anywhere, or ended by a source failure.
/// Apache.Arrow's reader takes a stream cut between two messages for its end, so the consumer must notice by itself.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ArrowBatchReaderTests
{
    private static readonly Guid First = Guid.Parse("00000000-0000-7000-8000-000000000001");

    /// <summary>PostgreSQL's microseconds since 2000-01-01 for rows 0..4, then what each must arrive as.</summary>
    private static readonly (long Micros, DateTime Expected)[] Timestamps =
    [
        (long.MaxValue, DateTime.MaxValue), // infinity, as Npgsql writes it back
        (long.MinValue, DateTime.MinValue), // -infinity
        (-63_082_281_599_999_999L, new DateTime(1, 1, 1).AddTicks(10)), // 0001-01-01 00:00:00.000001
        (252_455_615_999_999_999L, DateTime.MaxValue.AddTicks(-9)), // 9999-12-31 23:59:59.999999
        (762_525_296_789_012L, new DateTime(2024, 2, 29, 12, 34, 56).AddTicks(7_890_120)),
    ];

    /// <summary>Five rows in three batches (2, 2, 1), the stream's bytes and where each message ended.</summary>
    private static (byte[] Bytes, long[] Ends) Written(string? after = null)
    {
        using var stream = new MemoryStream();
        var ends = new List<long>();
        using (var writer = new ArrowStreamWriter(stream, UsersArrow.Schema, leaveOpen: true))
        {
            writer.WriteStart();
            ends.Add(stream.Position);
            var rows = new UsersArrow();
            for (var i = 0; i < Timestamps.Length; i++)
            {
                rows.Append(Id(i), $"Имя {i} 😀", "", "O'Brien\t\\N", Timestamps[i].Micros, i % 2 == 0);
                if (rows.Count == 2 || i == Timestamps.Length - 1)
                {
                    using var batch = rows.Build();
                    writer.WriteRecordBatch(batch);
                    ends.Add(stream.Position);
                }
            }

            writer.WriteEnd();
        }

        if (after is not null)
        {
            stream.Write(System.Text.Encoding.UTF8.GetBytes(after));
        }

        return (stream.ToArray(), [.. ends]);
    }

    private static Guid Id(int i) => new(First.ToString()[..^1] + i);

    private static async Task<List<User>> ReadAsync(byte[] bytes, Stream? through = null)
    {
        var users = new List<User>();
        await foreach (var batch in ArrowBatchReader.ReadAsync(through ?? new MemoryStream(bytes), "users/arrow", UsersArrow.Mismatch, CancellationToken.None))
        {
            using (batch)
            {
                users.AddRange(UsersArrow.Rows(batch, UsersCopyDecoder.CreatedAt));
            }
        }

        return users;
    }

    [Fact]
    public async Task Every_row_and_timestamp_edge_arrives_exactly_across_batches()
    {
        var users = await ReadAsync(Written().Bytes);

        Assert.Equal(Timestamps.Length, users.Count);
        for (var i = 0; i < users.Count; i++)
        {
            Assert.Equal((Id(i), $"Имя {i} 😀", "", "O'Brien\t\\N", Timestamps[i].Expected, i % 2 == 0),
                (users[i].Id, users[i].Name, users[i].Patronymic, users[i].Surname, users[i].CreatedAt, users[i].IsActive));
        }
    }

    /// <summary>A stream cut anywhere (after the schema, between batches, inside a length prefix, inside the end-of-stream marker) fails, named.</summary>
    [Fact]
    public async Task A_stream_cut_anywhere_fails_and_is_never_taken_for_the_end()
    {
        var (bytes, ends) = Written();
        for (var length = 0; length < bytes.Length; length++)
        {
            var cut = bytes[..length];
            var ex = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(cut));
            if (ends.Contains(length))
            {
                // Between two messages Apache.Arrow's reader reports a clean end: only our check can tell.
                Assert.Contains("ended without Arrow's end-of-stream marker", ex.Message);
            }
        }
    }

    [Fact]
    public async Task A_source_failure_after_the_end_of_stream_marker_is_named_with_the_sources_words()
    {
        var (bytes, _) = Written(SourceFailure.Marker + "row 42: created_at = 294276-12-31 23:59:59.999999 cannot travel\n");

        var ex = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));

        Assert.Equal("SyncDataSource's users/arrow broke after 5 rows: row 42: created_at = 294276-12-31 23:59:59.999999 cannot travel", ex.Message);
    }

    [Fact]
    public async Task Bytes_after_the_end_of_stream_marker_that_are_no_failure_are_refused()
    {
        var ex = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(Written("more").Bytes));

        Assert.Contains("goes on after Arrow's end-of-stream marker", ex.Message);
    }

    [Fact]
    public async Task Another_schema_is_named()
    {
        using var stream = new MemoryStream();
        var schema = new Schema.Builder().Field(new Field("id", Apache.Arrow.Types.Int64Type.Default, nullable: false)).Build();
        using (var writer = new ArrowStreamWriter(stream, schema, leaveOpen: true))
        {
            using var batch = new RecordBatch(schema, [new Int64Array.Builder().Append(1).Build()], 1);
            writer.WriteRecordBatch(batch);
            writer.WriteEnd();
        }

        var ex = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(stream.ToArray()));

        Assert.Contains("the Arrow schema is (id int64); expected (id fixed_size_binary[16], name utf8,", ex.Message);
    }

    /// <summary>The reader reads through the idle timeout's stream: a source that stops sending mid-batch fails the read, named.</summary>
    [Fact]
    public async Task A_source_that_stops_mid_batch_fails_after_the_idle_timeout()
    {
        var (bytes, ends) = Written();
        var stalling = new StallingStream(bytes[..(int)(ends[1] + 5)]);
        var idle = new IdleTimeoutStream(stalling, stalling, TimeSpan.FromMilliseconds(200), CancellationToken.None);

        var ex = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync([], idle));

        Assert.Contains("(idle timeout)", ex.Message);
    }

    /// <summary>The raw relays' path: the batches encoded as binary COPY straight from the columns parse back to the same rows.</summary>
    [Fact]
    public async Task The_batches_encoded_as_COPY_parse_back_to_the_same_rows()
    {
        var bytes = Written().Bytes;
        var fromCopy = new List<User>();
        await using (var copy = CopyOf(bytes))
        {
            await foreach (var user in BinaryCopyReader.ReadUsersAsync(copy, CancellationToken.None))
            {
                fromCopy.Add(user);
            }
        }

        Assert.Equal(Timestamps.Length, fromCopy.Count);
        Assert.Equal(Project(await ReadAsync(bytes)), Project(fromCopy));
    }

    [Fact]
    public async Task A_cut_stream_fails_the_COPY_encoding_too_never_a_short_COPY()
    {
        var (bytes, ends) = Written();
        await using var copy = CopyOf(bytes[..(int)ends[2]]);

        var ex = await Assert.ThrowsAsync<SourceStreamException>(() => copy.CopyToAsync(Stream.Null));

        Assert.Contains("ended without Arrow's end-of-stream marker after 4 rows", ex.Message);
    }

    private static ArrowCopyStream CopyOf(byte[] arrow)
    {
        var body = new MemoryStream(arrow);
        return new ArrowCopyStream(body, ArrowBatchReader.ReadAsync(body, "users/arrow", UsersArrow.Mismatch, CancellationToken.None), ArrowCopyColumns.Users, CancellationToken.None);
    }

    private static List<(Guid, string, string, string, DateTime, bool)> Project(List<User> users) =>
        [.. users.Select(u => (u.Id, u.Name, u.Patronymic, u.Surname, u.CreatedAt, u.IsActive))];

    [Theory]
    [InlineData(0L, ArrowFormat.PostgresEpochUnixMicros)]
    [InlineData(long.MaxValue, long.MaxValue)]
    [InlineData(long.MinValue, long.MinValue)]
    [InlineData(-211_813_488_000_000_000L, -211_813_488_000_000_000L + ArrowFormat.PostgresEpochUnixMicros)] // the lowest value of PostgreSQL's range (julian day 0)
    [InlineData(long.MaxValue - 1 - ArrowFormat.PostgresEpochUnixMicros, long.MaxValue - 1)] // ArrowFormat.LastCarriedTimestamp
    public void Timestamps_shift_exactly_between_the_two_epochs(long postgres, long arrow)
    {
        Assert.Equal(arrow, ArrowFormat.ToArrowMicros(postgres));
        Assert.Equal(postgres, ArrowFormat.ToPostgresMicros(arrow));
    }

    [Fact]
    public void The_last_carried_timestamp_is_the_one_just_below_the_value_that_means_infinity() =>
        Assert.Equal(ArrowFormat.LastCarriedTimestamp, PostgresTimestamp.Format(long.MaxValue - 1 - ArrowFormat.PostgresEpochUnixMicros));

    /// <summary>Returns its bytes, then never returns again until cancelled: a source that froze mid-stream.</summary>
    private sealed class StallingStream(byte[] bytes) : MemoryStream(bytes)
    {
        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            var read = await base.ReadAsync(buffer, cancellationToken);
            if (read == 0)
            {
                await Task.Delay(Timeout.Infinite, cancellationToken);
            }

            return read;
        }
    }
}
