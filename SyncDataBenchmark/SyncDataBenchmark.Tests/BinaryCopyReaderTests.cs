using System.Buffers.Binary;
using SomeService.Fetch;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: every error path of the binary COPY reader, fed from committed bytes of a real
/// `COPY users TO STDOUT (FORMAT binary)` (Fixtures/make-fixtures.sql says how they were made) and from small
/// mutations of them made here. After the headers a source failure still looks like a clean end of the body, so the
/// consumer must notice a cut stream by itself.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class BinaryCopyReaderTests
{
    private const int HeaderLength = 19; // 11-byte signature, 4-byte flags, 4-byte extension length

    private static byte[] Fixture(string name) => File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Fixtures", name));

    /// <summary>
    /// users-3.bin with its second row's created_at one microsecond after 0001-01-01 00:00:00: the fixture's own value
    /// is DateTime.MinValue, which is refused (it means -infinity to Npgsql), and these tests are about the rest.
    /// </summary>
    private static byte[] ThreeRows
    {
        get
        {
            var bytes = Fixture("users-3.bin");
            BinaryPrimitives.WriteInt64BigEndian(bytes.AsSpan(FieldStart(bytes, tuple: 1, field: 4) + 4), -63_082_281_599_999_999L);
            return bytes;
        }
    }

    [Fact]
    public async Task Every_row_arrives_exactly()
    {
        var users = await ReadAsync(ThreeRows);

        Assert.Equal(3, users.Count);
        Assert.Equal(new User
        {
            Id = Guid.Parse("00000000-0000-7000-8000-000000000001"), Name = "Анна", Patronymic = "Ивановна", Surname = "Петрова",
            CreatedAt = new DateTime(2024, 2, 29, 12, 34, 56).AddTicks(7_890_120), IsActive = true,
        }, users[0], UserComparer.Instance);
        Assert.Equal(("tab\there", "", "O'Brien \\N", DateTime.MinValue.AddTicks(10), false), (users[1].Name, users[1].Patronymic, users[1].Surname, users[1].CreatedAt, users[1].IsActive));
        Assert.Equal(Guid.Parse("ffffffff-ffff-7fff-bfff-ffffffffffff"), users[2].Id);
        Assert.Equal(("emoji 😀", DateTime.MaxValue.AddTicks(-9)), (users[2].Name, users[2].CreatedAt));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(int.MaxValue)]
    public async Task A_value_longer_than_the_reader_buffer_straddles_reads_and_arrives_whole(int chunk)
    {
        var user = Assert.Single(await ReadAsync(Fixture("users-long-name.bin"), chunk));

        Assert.Equal(new string('ж', 40_000), user.Name);
        Assert.Equal(("p", "s"), (user.Patronymic, user.Surname));
    }

    [Fact]
    public async Task A_stream_cut_at_any_byte_before_the_trailer_is_an_error()
    {
        var bytes = ThreeRows;
        for (var cut = 0; cut < bytes.Length; cut++)
        {
            var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes[..cut]));
            Assert.Contains("without its trailer", error.Message);
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(3)]
    public async Task A_stream_cut_at_a_tuple_boundary_names_the_rows_it_got(int tuples)
    {
        var bytes = ThreeRows;
        var boundary = tuples == 3 ? bytes.Length - 2 : TupleStart(bytes, tuples);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes[..boundary]));
        Assert.Contains($"after {tuples} rows", error.Message);
    }

    [Fact]
    public async Task Bytes_that_are_not_binary_copy_are_refused()
    {
        var json = "[{\"id\":\"00000000-0000-7000-8000-000000000001\",\"name\":\"Анна\"}]"u8.ToArray();

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(json));
        Assert.Contains("not PostgreSQL binary COPY (bad signature)", error.Message);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(6)]
    [InlineData(10)]
    public async Task A_damaged_signature_is_refused(int at)
    {
        var bytes = ThreeRows;
        bytes[at] ^= 0x20;

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains("bad signature", error.Message);
    }

    [Theory]
    [InlineData(0x0001_0000, "0x00010000")] // OIDs included
    [InlineData(unchecked((int)0x8000_0000), "0x80000000")]
    public async Task Critical_header_flags_are_refused(int flags, string shown)
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(11), flags);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains($"unsupported flags {shown}", error.Message);
    }

    [Fact]
    public async Task Non_critical_flags_and_a_header_extension_are_skipped_as_the_format_says()
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(11), 0x0000_0001);
        var extension = new byte[] { 0, 0, 0, 5, 1, 2, 3, 4, 5 };
        var extended = bytes[..15].Concat(extension).Concat(bytes[HeaderLength..]).ToArray();

        Assert.Equal(3, (await ReadAsync(extended)).Count);
    }

    [Fact]
    public async Task A_negative_header_extension_length_is_refused()
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(15), -1);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains("header extension length -1", error.Message);
    }

    [Fact]
    public async Task A_header_extension_longer_than_the_stream_is_a_cut_stream()
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(15), 1_000_000);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains("without its trailer after 0 rows", error.Message);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    [InlineData(7)]
    [InlineData(-2)]
    public async Task A_tuple_with_the_wrong_field_count_is_refused(short fields)
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt16BigEndian(bytes.AsSpan(TupleStart(bytes, 1)), fields);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains($"COPY tuple 2 has {fields} fields; expected 6", error.Message);
    }

    [Theory]
    [InlineData(0, "id")]
    [InlineData(1, "name")]
    [InlineData(2, "patronymic")]
    [InlineData(3, "surname")]
    [InlineData(4, "created_at")]
    [InlineData(5, "is_active")]
    public async Task A_null_in_a_not_null_column_is_refused(int field, string column)
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(FieldStart(bytes, tuple: 2, field)), -1);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains($"COPY tuple 3: {column} is NULL, but the column is NOT NULL", error.Message);
    }

    [Theory]
    [InlineData(0, "id", 15, "16")]
    [InlineData(0, "id", 17, "16")]
    [InlineData(4, "created_at", 4, "8")]
    [InlineData(5, "is_active", 2, "1")]
    [InlineData(5, "is_active", 0, "1")]
    [InlineData(1, "name", -2, "≥ 0")]
    public async Task A_field_of_the_wrong_length_is_refused(int field, string column, int length, string expected)
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(FieldStart(bytes, tuple: 0, field)), length);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains($"COPY tuple 1: {column} has length {length}; expected {expected}", error.Message);
    }

    [Theory]
    [InlineData("users-year-10000.bin", "row 00000000-0000-7000-8000-0000000000fe: created_at = 10000-01-01 00:00:00")]
    public async Task A_timestamp_dotnet_cannot_hold_names_the_row_and_the_value(string fixture, string message)
    {
        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(Fixture(fixture)));

        Assert.Contains(message, error.Message);
        Assert.Contains("(NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged", error.Message);
    }

    [Theory]
    [InlineData(long.MaxValue)]
    [InlineData(long.MinValue)]
    public async Task Infinity_arrives_as_the_DateTime_Npgsql_writes_back_as_infinity(long micros)
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt64BigEndian(bytes.AsSpan(FieldStart(bytes, tuple: 1, field: 4) + 4), micros);

        var users = await ReadAsync(bytes);
        Assert.Equal(micros == long.MaxValue ? DateTime.MaxValue : DateTime.MinValue, users[1].CreatedAt);
        Assert.Equal(DateTime.MaxValue, Assert.Single(await ReadAsync(Fixture("users-infinity.bin"))).CreatedAt);
    }

    [Theory]
    [InlineData(-63_082_281_600_000_000L, "0001-01-01 00:00:00")] // DateTime.MinValue, which Npgsql writes as -infinity
    [InlineData(-211_813_488_000_000_000L, "4714-11-24 00:00:00 BC")]
    [InlineData(-63_082_281_600_000_001L, "0001-12-31 23:59:59.999999 BC")] // one microsecond before 0001-01-01
    public async Task Timestamps_before_year_1_are_refused_with_their_value(long micros, string shown)
    {
        var bytes = ThreeRows;
        BinaryPrimitives.WriteInt64BigEndian(bytes.AsSpan(FieldStart(bytes, tuple: 1, field: 4) + 4), micros);

        var error = await Assert.ThrowsAsync<SourceStreamException>(() => ReadAsync(bytes));
        Assert.Contains($"row 00000000-0000-7000-8000-000000000002: created_at = {shown}", error.Message);
    }

    /// <summary>Offset of the field-count word of tuple <paramref name="tuple"/> (0-based) in a well-formed stream.</summary>
    private static int TupleStart(byte[] bytes, int tuple)
    {
        var at = HeaderLength;
        for (var t = 0; t < tuple; t++)
        {
            at += 2;
            for (var f = 0; f < 6; f++)
            {
                at += 4 + BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(at));
            }
        }

        return at;
    }

    /// <summary>Offset of the length word of a field.</summary>
    private static int FieldStart(byte[] bytes, int tuple, int field)
    {
        var at = TupleStart(bytes, tuple) + 2;
        for (var f = 0; f < field; f++)
        {
            at += 4 + BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(at));
        }

        return at;
    }

    private static async Task<List<User>> ReadAsync(byte[] bytes, int chunk = 7)
    {
        var users = new List<User>();
        // Small reads make fields straddle reads, as a slow network would.
        await using var stream = new ChunkedStream(bytes, chunk);
        await foreach (var user in BinaryCopyReader.ReadUsersAsync(stream, CancellationToken.None))
        {
            users.Add(user);
        }

        return users;
    }

    /// <summary>Returns at most <c>chunk</c> bytes per read.</summary>
    private sealed class ChunkedStream(byte[] bytes, int chunk) : MemoryStream(bytes, writable: false)
    {
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(chunk, buffer.Length)], cancellationToken);
    }

    private sealed class UserComparer : IEqualityComparer<User>
    {
        public static readonly UserComparer Instance = new();

        public bool Equals(User? x, User? y) =>
            x is not null && y is not null && (x.Id, x.Name, x.Patronymic, x.Surname, x.CreatedAt, x.IsActive) == (y.Id, y.Name, y.Patronymic, y.Surname, y.CreatedAt, y.IsActive);

        public int GetHashCode(User obj) => obj.Id.GetHashCode();
    }
}
