using System.Globalization;
using Grpc.Core;
using SyncData.Grpc;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// The orders table on GrpcStream: its messages (<see cref="OrdersMessages"/>), which hold every value exactly as
/// PostgreSQL does, as <see cref="Order"/> rows. A value the Order cannot hold exactly (numeric NaN/±Infinity or beyond
/// decimal, a timestamp or date .NET cannot tell apart from ±infinity, an array not one-dimensional from 1, an enum label
/// OrderStatus lacks) is refused with its row, column and value, never altered.
/// </summary>
public sealed class OrdersGrpcRows : GrpcStreamRows<Order, OrderBatch>
{
    public static readonly OrdersGrpcRows Instance = new();

    private static readonly Dictionary<string, OrderStatus> Statuses =
        Enum.GetValues<OrderStatus>().ToDictionary(s => s.ToString().ToLowerInvariant());

    protected override AsyncServerStreamingCall<OrderBatch> Call(CallInvoker invoker, CallOptions options) =>
        new GrpcStreamSource.GrpcStreamSourceClient(invoker).Orders(new OrdersRequest(), options);

    protected override IEnumerable<Order> RowsOf(OrderBatch batch) => batch.Rows.Select(ToOrder);

    public static Order ToOrder(OrderRow row) => new()
    {
        Id = row.Id,
        CustomerId = GrpcUuid.FromHalves(row.CustomerIdHigh, row.CustomerIdLow),
        Status = Statuses.TryGetValue(row.Status, out var status)
            ? status
            : throw Refused(row, "status", $"'{row.Status}'", $"OrderStatus has no value for the label (values: {string.Join(", ", Statuses.Keys)})"),
        Total = Decimal(row, "total", row.Total),
        Discount = row.HasDiscount ? Decimal(row, "discount", row.Discount) : null,
        ExchangeRate = Decimal(row, "exchange_rate", row.ExchangeRate),
        Currency = row.Currency,
        PlacedAt = PostgresTimestamp.ToDateTime(row.PlacedAt, DateTimeKind.Utc) ?? throw Refused(row, "placed_at", PostgresTimestamp.Format(row.PlacedAt) + "+00",
            "DateTime holds years 1–9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity"),
        DeliveryDate = row.HasDeliveryDate
            ? PostgresTimestamp.ToDateOnly(row.DeliveryDate) ?? throw Refused(row, "delivery_date", PostgresTimestamp.FormatDate(row.DeliveryDate),
                "DateOnly holds 0001-01-01 to 9999-12-31, which are DateOnly.MinValue/MaxValue, written by Npgsql as -infinity/infinity")
            : null,
        Tags = Tags(row),
        Attributes = row.Attributes,
        Note = row.HasNote ? row.Note : null,
        Attachment = row.HasAttachment ? row.Attachment.ToByteArray() : null,
        ItemCount = row.ItemCount,
        IsGift = row.IsGift,
        ShippingAddress = row.ShippingAddress,
    };

    /// <summary>
    /// numeric as PostgreSQL printed it, as a decimal only when the decimal prints back the same text: decimal's parser
    /// rounds what it cannot hold (more than ~29 digits, a scale above 28), and NaN, ±Infinity and 2^96 do not parse.
    /// The scale is kept (1.50 stays 1.50).
    /// </summary>
    private static decimal Decimal(OrderRow row, string column, string text)
    {
        Span<char> printed = stackalloc char[64];
        return decimal.TryParse(text, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value)
               && value.TryFormat(printed, out var length, provider: CultureInfo.InvariantCulture)
               && printed[..length].SequenceEqual(text)
            ? value
            : throw Refused(row, column, text, "decimal holds a 96-bit integer over a power of ten up to 28: no NaN, no ±Infinity, at most 28 decimal places");
    }

    /// <summary>text[] as string?[]: one dimension from 1 (or the empty array), its NULL elements where they were.</summary>
    private static string?[] Tags(OrderRow row)
    {
        if (row.HasTagsDimensions || row.HasTagsLowerBound)
        {
            var dimensions = row.HasTagsDimensions ? row.TagsDimensions : 1;
            var lowerBound = row.HasTagsLowerBound ? row.TagsLowerBound : 1;
            throw Refused(row, "tags", $"an array of {dimensions} dimension(s), the first from {lowerBound}", "string?[] holds one dimension from 1");
        }

        var tags = new string?[row.Tags.Count];
        row.Tags.CopyTo(tags, 0);
        foreach (var at in row.TagsNullAt)
        {
            tags[at] = null;
        }

        return tags;
    }

    private static SourceStreamException Refused(OrderRow row, string column, string value, string why) =>
        new($"row {row.Id}: {column} = {value} cannot be carried by an Order row: the gRPC message holds it exactly, but .NET's {why}. " +
            "Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged.");
}
