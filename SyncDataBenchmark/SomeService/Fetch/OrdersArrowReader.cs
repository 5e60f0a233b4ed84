using System.Globalization;
using Apache.Arrow;
using SyncData.Arrow;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// ArrowStream's orders batches (<see cref="OrdersArrow.Schema"/>) as Orders. The columns carry PostgreSQL's own values
/// (numeric text, microseconds, days), so a value the Order's .NET type cannot hold exactly (numeric NaN/±Infinity or
/// beyond decimal, a timestamp or date .NET cannot tell from ±infinity, an unknown enum label) is refused here with its
/// row, column and value, as the parsed COPY rows refuse it; never rounded, clamped or mapped.
/// </summary>
internal static class OrdersArrowReader
{
    private const string Reader = "ArrowStream's parsed rows (SomeService's reader, into the Order every writer library is handed)";

    public static IEnumerable<Order> Rows(RecordBatch batch)
    {
        var id = (Int64Array)batch.Column(0);
        var customerId = ArrowFormat.Storage(batch.Column(1));
        var (status, total, discount, exchangeRate, currency) = (Text(batch, 2), Text(batch, 3), Text(batch, 4), Text(batch, 5), Text(batch, 6));
        var placedAt = (TimestampArray)batch.Column(7);
        var deliveryDate = (Date32Array)batch.Column(8);
        var tags = (ListArray)batch.Column(9);
        var (attributes, note, shippingAddress) = (Text(batch, 10), Text(batch, 11), Text(batch, 15));
        var attachment = (BinaryArray)batch.Column(12);
        var (itemCount, isGift) = ((Int32Array)batch.Column(13), (BooleanArray)batch.Column(14));
        for (var i = 0; i < batch.Length; i++)
        {
            var rowId = id.Values[i];
            yield return new Order
            {
                Id = rowId,
                CustomerId = new Guid(customerId.GetBytes(i), bigEndian: true),
                Status = Status(status.GetString(i), rowId),
                Total = Decimal(total.GetString(i), rowId, "total"),
                Discount = discount.IsNull(i) ? null : Decimal(discount.GetString(i), rowId, "discount"),
                ExchangeRate = Decimal(exchangeRate.GetString(i), rowId, "exchange_rate"),
                Currency = currency.GetString(i),
                PlacedAt = PlacedAt(ArrowFormat.ToPostgresMicros(placedAt.Values[i]), rowId),
                DeliveryDate = deliveryDate.IsNull(i) ? null : DeliveryDate(ArrowFormat.ToPostgresDays(deliveryDate.Values[i]), rowId),
                Tags = ArrowTextLists.Elements(tags, i),
                Attributes = attributes.GetString(i),
                Note = note.IsNull(i) ? null : note.GetString(i),
                Attachment = attachment.IsNull(i) ? null : attachment.GetBytes(i).ToArray(),
                ItemCount = itemCount.Values[i],
                IsGift = isGift.GetValue(i) == true,
                ShippingAddress = shippingAddress.GetString(i),
            };
        }
    }

    private static StringArray Text(RecordBatch batch, int column) => (StringArray)batch.Column(column);

    private static OrderStatus Status(string label, long row) =>
        OrdersCopyDecoder.Statuses.TryGetValue(label, out var status)
            ? status
            : throw Refused(row, "status", $"'{label}'", $"OrderStatus has no value for the label (values: {string.Join(", ", OrdersCopyDecoder.Statuses.Keys)})");

    /// <summary>
    /// PostgreSQL's numeric text into decimal, kept only if decimal prints it back identically: decimal.Parse rounds past
    /// 28-29 digits and has no NaN or ±Infinity, and it keeps the scale (1.5000 stays 1.5000), so the round trip is exact
    /// exactly when nothing was lost.
    /// </summary>
    private static decimal Decimal(string text, long row, string column) =>
        decimal.TryParse(text, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value)
        && value.ToString(CultureInfo.InvariantCulture) == text
            ? value
            : throw Refused(row, column, text,
                ".NET's decimal holds a 96-bit integer over a power of ten up to 28: no NaN, no ±Infinity, at most 28 decimal places, about 28-29 significant digits");

    private static DateTime PlacedAt(long micros, long row) =>
        PostgresTimestamp.ToDateTime(micros, DateTimeKind.Utc) ?? throw Refused(row, "placed_at", PostgresTimestamp.Format(micros) + "+00",
            ".NET's DateTime holds years 1–9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity");

    private static DateOnly DeliveryDate(int days, long row) =>
        PostgresTimestamp.ToDateOnly(days) ?? throw Refused(row, "delivery_date", PostgresTimestamp.FormatDate(days),
            ".NET's DateOnly holds 0001-01-01 to 9999-12-31, and those two are DateOnly.MinValue/MaxValue, which Npgsql writes as -infinity/infinity");

    private static SourceStreamException Refused(long row, string column, string value, string why) =>
        new($"row {row}: {column} = {value} cannot be carried by {Reader}: {why}. Arrow carried it exactly; no writer fed Orders can.");
}
