using Apache.Arrow;
using Npgsql;
using SyncData.Arrow;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>orders for ArrowStream: the guarded query of arrow-orders.sql, each column read as PostgreSQL's own value (text, microseconds, days).</summary>
public sealed class OrdersArrowRows : ArrowSourceRows
{
    private static readonly string GuardedOrders = SendableDbContext.Embedded("arrow-orders.sql")
        .Replace("{refusal}", ArrowFormat.Refusal, StringComparison.Ordinal)
        .Replace("{last}", ArrowFormat.LastCarriedTimestamp, StringComparison.Ordinal);

    private readonly OrdersArrow _rows = new();

    public override string Query => GuardedOrders;

    public override Schema Schema => OrdersArrow.Schema;

    public override int Count => _rows.Count;

    public override void Append(NpgsqlDataReader row) => _rows.Append(
        row.GetInt64(0), row.GetGuid(1), row.GetString(2), row.GetString(3), row.IsDBNull(4) ? null : row.GetString(4), row.GetString(5),
        row.GetString(6), row.GetFieldValue<long>(7), row.IsDBNull(8) ? null : row.GetFieldValue<int>(8), row.GetFieldValue<string?[]>(9),
        row.GetString(10), row.IsDBNull(11) ? null : row.GetString(11), row.IsDBNull(12) ? null : row.GetFieldValue<byte[]>(12),
        row.GetInt32(13), row.GetBoolean(14), row.GetString(15));

    public override RecordBatch Build() => _rows.Build();
}
