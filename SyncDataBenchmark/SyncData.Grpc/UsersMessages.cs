using System.Buffers.Binary;
using System.Data.Common;
using SyncData.Shared;

namespace SyncData.Grpc;

/// <summary>
/// The users row on GrpcStream's wire, both directions in one place: a row as the source reads it (columns in
/// SyncData.Postgres' COPY order) into a <see cref="UserRow"/>, and a <see cref="UserRow"/> into the lab's
/// <see cref="User"/>. Another table is another file like this one, plus its messages in the .proto.
/// </summary>
public static class UsersMessages
{
    /// <summary>
    /// Rows per message. A users row is ~60–70 bytes as protobuf, so a batch is ~64 KiB: the size NpgsqlCopy relays its
    /// chunks in. Much smaller and the per-message costs (the 5-byte frame, a flush, an await, a message object) add up
    /// per row; much larger and the consumer holds more rows before its writer sees the first, each message is parsed
    /// whole before any row is handed on, and the idle timeout measures longer silences. Far below gRPC's 4 MB limit,
    /// so a batch of the longest names the lab's awkward rows hold (100,000 characters) still fits.
    /// </summary>
    public const int BatchRows = 1000;

    /// <summary>PostgreSQL's epoch, 2000-01-01, in .NET ticks.</summary>
    private const long PostgresEpochTicks = 630_822_816_000_000_000;

    /// <summary>DateTime.MinValue (0001-01-01 00:00:00) in PostgreSQL microseconds: the value Npgsql reads -infinity as.</summary>
    private const long MinMicros = -PostgresEpochTicks / TimeSpan.TicksPerMicrosecond;

    /// <summary>DateTime.MaxValue in PostgreSQL microseconds (to the microsecond).</summary>
    private const long MaxMicros = (3_155_378_975_999_999_999 - PostgresEpochTicks) / TimeSpan.TicksPerMicrosecond;

    /// <summary>
    /// Fills <paramref name="row"/> from the current row of <paramref name="reader"/> (id, name, patronymic, surname,
    /// created_at, is_active). created_at is read as Npgsql's raw long, PostgreSQL's microseconds, so no value is
    /// converted on the way.
    /// </summary>
    public static void Fill(UserRow row, DbDataReader reader)
    {
        SetId(row, reader.GetGuid(0));
        row.Name = reader.GetString(1);
        row.Patronymic = reader.GetString(2);
        row.Surname = reader.GetString(3);
        row.CreatedAt = reader.GetFieldValue<long>(4);
        row.IsActive = reader.GetBoolean(5);
    }

    /// <summary>The uuid's 16 bytes in PostgreSQL's (big-endian) order, as two fixed64.</summary>
    public static void SetId(UserRow row, Guid value)
    {
        Span<byte> id = stackalloc byte[16];
        value.TryWriteBytes(id, bigEndian: true, out _);
        row.IdHigh = BinaryPrimitives.ReadUInt64BigEndian(id);
        row.IdLow = BinaryPrimitives.ReadUInt64BigEndian(id[8..]);
    }

    public static Guid IdOf(UserRow row)
    {
        Span<byte> id = stackalloc byte[16];
        BinaryPrimitives.WriteUInt64BigEndian(id, row.IdHigh);
        BinaryPrimitives.WriteUInt64BigEndian(id[8..], row.IdLow);
        return new Guid(id, bigEndian: true);
    }

    /// <summary>
    /// The row as a <see cref="User"/>, or null when its created_at has no DateTime that Npgsql would write back as the
    /// same value: ±infinity become DateTime.MaxValue/MinValue (as Npgsql's default mapping reads and writes them);
    /// 0001-01-01 00:00:00 (that is DateTime.MinValue, written back as -infinity) and years outside 1–9999 have none.
    /// The caller names the row and the value.
    /// </summary>
    public static User? ToUser(UserRow row)
    {
        DateTime createdAt;
        switch (row.CreatedAt)
        {
            case long.MaxValue:
                createdAt = DateTime.MaxValue;
                break;
            case long.MinValue:
                createdAt = DateTime.MinValue;
                break;
            case > MinMicros and <= MaxMicros:
                createdAt = new DateTime(PostgresEpochTicks + row.CreatedAt * TimeSpan.TicksPerMicrosecond, DateTimeKind.Unspecified);
                break;
            default:
                return null;
        }

        return new User
        {
            Id = IdOf(row),
            Name = row.Name,
            Patronymic = row.Patronymic,
            Surname = row.Surname,
            CreatedAt = createdAt,
            IsActive = row.IsActive,
        };
    }
}
