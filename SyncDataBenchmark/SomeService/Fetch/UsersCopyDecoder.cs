using System.Buffers.Binary;
using System.Text;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>The users rows of a binary COPY body (<see cref="SyncTable.Users"/>'s columns): six NOT NULL columns.</summary>
internal sealed class UsersCopyDecoder() : CopyRowDecoder<User>(ColumnNames, [16, -1, -1, -1, 8, 1], new bool[6]) // -1: any length (text)
{
    private static readonly string[] ColumnNames = SyncTable.Users.Columns.Split(", ");

    private Guid _id;
    private string _name = "", _patronymic = "", _surname = "";
    private long _micros;
    private bool _isActive;

    protected override void DecodeField(int field, ReadOnlySpan<byte> bytes)
    {
        switch (field)
        {
            case 0: _id = new Guid(bytes, bigEndian: true); break;
            case 1: _name = Encoding.UTF8.GetString(bytes); break;
            case 2: _patronymic = Encoding.UTF8.GetString(bytes); break;
            case 3: _surname = Encoding.UTF8.GetString(bytes); break;
            case 4: _micros = BinaryPrimitives.ReadInt64BigEndian(bytes); break;
            default: _isActive = bytes[0] != 0; break;
        }
    }

    protected override void DecodeNull(int field) => throw new InvalidOperationException("users has no nullable column.");

    protected override User CompleteRow() => new()
    {
        Id = _id,
        Name = _name,
        Patronymic = _patronymic,
        Surname = _surname,
        CreatedAt = CreatedAt(_micros, _id),
        IsActive = _isActive,
    };

    /// <summary>created_at as the User holds it, or the row refused by name (also for ArrowStream's rows, which carry PostgreSQL's microseconds).</summary>
    internal static DateTime CreatedAt(long micros, Guid id) => PostgresTimestamp.ToDateTime(micros, DateTimeKind.Unspecified) ?? throw Unrepresentable(micros, id);

    private static SourceStreamException Unrepresentable(long micros, Guid id) => new(
        $"row {id}: created_at = {PostgresTimestamp.Format(micros)} cannot be carried by a parsed COPY row: .NET's DateTime holds years 1–9999, " +
        "and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity. Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged.");
}
