using System.Globalization;
using System.Text.Json.Serialization.Metadata;
using Apache.Arrow;
using Npgsql;
using NpgsqlTypes;
using SomeService.Fetch;
using SyncData.Arrow;
using SyncData.Model;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Tables;

/// <summary>The orders table's rows: keyed by bigint; sixteen columns of the types services carry, four of them nullable.</summary>
public sealed class OrdersRowTable : RowTable<Order>
{
    public static readonly OrdersRowTable Instance = new();

    public override SyncTable Table => SyncTable.Orders;

    public override JsonTypeInfo<Order> Json => SyncJsonContext.Default.Order;

    public override string KeyOf(Order row) => row.Id.ToString(CultureInfo.InvariantCulture);

    public override CopyRowDecoder<Order> NewCopyDecoder() => new OrdersCopyDecoder();

    public override IGrpcStreamRows<Order> GrpcStream => OrdersGrpcRows.Instance;

    public override string? ArrowMismatch(Schema received) => OrdersArrow.Mismatch(received);

    public override IEnumerable<Order> ArrowRows(RecordBatch batch) => OrdersArrowReader.Rows(batch);

    public override ArrowCopyColumns ArrowCopy => OrdersArrowCopyColumns.Orders;

    /// <summary>
    /// Every column with its PostgreSQL type named: the enum by its type name (mapped on the data source, SyncDbContext.MapTypes),
    /// jsonb as Jsonb (a string sent as text would be refused by the jsonb column's binary input), text[] as Array | Text.
    /// A null nullable value is written as NULL by Npgsql's Write.
    /// </summary>
    public override void Write(NpgsqlBinaryImporter importer, Order row)
    {
        importer.StartRow();
        importer.Write(row.Id, NpgsqlDbType.Bigint);
        importer.Write(row.CustomerId, NpgsqlDbType.Uuid);
        importer.Write(row.Status, SyncDbContext.OrderStatusType);
        importer.Write(row.Total, NpgsqlDbType.Numeric);
        importer.Write(row.Discount, NpgsqlDbType.Numeric);
        importer.Write(row.ExchangeRate, NpgsqlDbType.Numeric);
        importer.Write(row.Currency, NpgsqlDbType.Char);
        importer.Write(row.PlacedAt, NpgsqlDbType.TimestampTz);
        importer.Write(row.DeliveryDate, NpgsqlDbType.Date);
        importer.Write(row.Tags, NpgsqlDbType.Array | NpgsqlDbType.Text);
        importer.Write(row.Attributes, NpgsqlDbType.Jsonb);
        importer.Write(row.Note, NpgsqlDbType.Text);
        importer.Write(row.Attachment, NpgsqlDbType.Bytea);
        importer.Write(row.ItemCount, NpgsqlDbType.Integer);
        importer.Write(row.IsGift, NpgsqlDbType.Boolean);
        importer.Write(row.ShippingAddress, NpgsqlDbType.Text);
    }
}
