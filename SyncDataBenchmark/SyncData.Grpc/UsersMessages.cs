using System.Data.Common;

namespace SyncData.Grpc;

/// <summary>
/// The users row into GrpcStream's message, as the source reads it (columns in SyncData.Postgres' COPY order);
/// SomeService turns the message into its row (UsersGrpcRows, where .NET's limits are). Another table is another file
/// like this one, plus its messages in the .proto.
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

    /// <summary>
    /// Fills <paramref name="row"/> from the current row of <paramref name="reader"/> (id, name, patronymic, surname,
    /// created_at, is_active). created_at is read as Npgsql's raw long, PostgreSQL's microseconds, so no value is
    /// converted on the way.
    /// </summary>
    public static void Fill(UserRow row, DbDataReader reader)
    {
        (row.IdHigh, row.IdLow) = GrpcUuid.Halves(reader.GetGuid(0));
        row.Name = reader.GetString(1);
        row.Patronymic = reader.GetString(2);
        row.Surname = reader.GetString(3);
        row.CreatedAt = reader.GetFieldValue<long>(4);
        row.IsActive = reader.GetBoolean(5);
    }
}
