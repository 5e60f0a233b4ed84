using System.Buffers.Binary;
using System.Text;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// The orders rows of a binary COPY body (<see cref="SyncTable.Orders"/>'s columns), each field decoded from
/// PostgreSQL's binary form into the type EF Core maps the column to. A value that type cannot hold exactly (numeric
/// NaN/±Infinity or beyond decimal, a timestamp or date .NET cannot tell apart from ±infinity, an array that is not
/// one-dimensional from 1) is refused with its row, column and value; only the raw relays carry it.
/// </summary>
internal sealed class OrdersCopyDecoder() : CopyRowDecoder<Order>(ColumnNames, FixedLengths, NullableColumns)
{
    private static readonly string[] ColumnNames = SyncTable.Orders.Columns.Split(", ");
    private static readonly int[] FixedLengths = [8, 16, -1, -1, -1, -1, -1, 8, 4, -1, -1, -1, -1, 4, 1, -1];
    private static readonly bool[] NullableColumns = [.. ColumnNames.Select(c => c is "discount" or "delivery_date" or "note" or "attachment")];
    private const string OnlyRawRelays = "Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged.";

    internal static readonly Dictionary<string, OrderStatus> Statuses =
        Enum.GetValues<OrderStatus>().ToDictionary(s => s.ToString().ToLowerInvariant());

    private Order _row = new();

    protected override void DecodeField(int field, ReadOnlySpan<byte> bytes)
    {
        switch (field)
        {
            case 0: _row.Id = BinaryPrimitives.ReadInt64BigEndian(bytes); break;
            case 1: _row.CustomerId = new Guid(bytes, bigEndian: true); break;
            case 2: _row.Status = Status(bytes); break;
            case 3: _row.Total = Decimal(bytes, "total"); break;
            case 4: _row.Discount = Decimal(bytes, "discount"); break;
            case 5: _row.ExchangeRate = Decimal(bytes, "exchange_rate"); break;
            case 6: _row.Currency = Encoding.UTF8.GetString(bytes); break;
            case 7: _row.PlacedAt = PlacedAt(BinaryPrimitives.ReadInt64BigEndian(bytes)); break;
            case 8: _row.DeliveryDate = DeliveryDate(BinaryPrimitives.ReadInt32BigEndian(bytes)); break;
            case 9: _row.Tags = TextArray(bytes, "tags"); break;
            case 10: _row.Attributes = Jsonb(bytes); break;
            case 11: _row.Note = Encoding.UTF8.GetString(bytes); break;
            case 12: _row.Attachment = bytes.ToArray(); break;
            case 13: _row.ItemCount = BinaryPrimitives.ReadInt32BigEndian(bytes); break;
            case 14: _row.IsGift = bytes[0] != 0; break;
            default: _row.ShippingAddress = Encoding.UTF8.GetString(bytes); break;
        }
    }

    protected override void DecodeNull(int field)
    {
        switch (field)
        {
            case 4: _row.Discount = null; break;
            case 8: _row.DeliveryDate = null; break;
            case 11: _row.Note = null; break;
            default: _row.Attachment = null; break;
        }
    }

    protected override Order CompleteRow()
    {
        var row = _row;
        _row = new Order();
        return row;
    }

    private OrderStatus Status(ReadOnlySpan<byte> bytes)
    {
        var label = Encoding.UTF8.GetString(bytes);
        return Statuses.TryGetValue(label, out var status)
            ? status
            : throw Refused("status", $"'{label}'", $"OrderStatus has no value for the label (values: {string.Join(", ", Statuses.Keys)})");
    }

    private decimal Decimal(ReadOnlySpan<byte> bytes, string column) =>
        PostgresNumeric.ToDecimal(bytes) ?? throw Refused(column, PostgresNumeric.Format(bytes),
            ".NET's decimal holds a 96-bit integer over a power of ten up to 28: no NaN, no ±Infinity, at most 28 decimal places, about 28-29 significant digits");

    private DateTime PlacedAt(long micros) =>
        PostgresTimestamp.ToDateTime(micros, DateTimeKind.Utc) ?? throw Refused("placed_at", PostgresTimestamp.Format(micros) + "+00",
            ".NET's DateTime holds years 1–9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity");

    private DateOnly DeliveryDate(int days) =>
        PostgresTimestamp.ToDateOnly(days) ?? throw Refused("delivery_date", PostgresTimestamp.FormatDate(days),
            ".NET's DateOnly holds 0001-01-01 to 9999-12-31, and those two are DateOnly.MinValue/MaxValue, which Npgsql writes as -infinity/infinity");

    private string Jsonb(ReadOnlySpan<byte> bytes) =>
        PostgresFields.Jsonb(bytes)
        ?? throw new SourceStreamException($"COPY tuple {Tuple:N0}: attributes is not jsonb of version 1 (first byte {PostgresFields.JsonbVersion(bytes)}).");

    private string?[] TextArray(ReadOnlySpan<byte> bytes, string column) =>
        PostgresFields.TextArray(bytes, out var shape) ?? throw Refused(column, shape, "string?[] holds one dimension from 1");

    private SourceStreamException Refused(string column, string value, string why) =>
        new($"row {_row.Id}: {column} = {value} cannot be carried by a parsed COPY row (SomeService's reader, into the Order every writer library is handed): {why}. {OnlyRawRelays}");
}
