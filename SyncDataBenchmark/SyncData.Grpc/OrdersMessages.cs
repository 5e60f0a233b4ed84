using System.Data.Common;
using Google.Protobuf;

namespace SyncData.Grpc;

/// <summary>
/// The orders row into GrpcStream's message, as the source reads it (SyncDataSource's grpc-orders.sql, column by
/// column): every value as PostgreSQL holds it, so the message is exact for every legal value; SomeService turns it
/// into its row and refuses what the row cannot hold (OrdersGrpcRows).
/// </summary>
public static class OrdersMessages
{
    /// <summary>
    /// Rows per message: an orders row is ~1 KiB on average, so a batch is ~64 KiB, as users' (<see cref="UsersMessages.BatchRows"/>
    /// says why that size). Its longest rows (a 64 KiB bytea, a TOASTed text) make a message of a few MiB at most.
    /// </summary>
    public const int BatchRows = 64;

    /// <summary>Fills <paramref name="row"/> (reused: every field is set or cleared) from the current row of <paramref name="reader"/>.</summary>
    public static void Fill(OrderRow row, DbDataReader reader)
    {
        row.Id = reader.GetInt64(0);
        (row.CustomerIdHigh, row.CustomerIdLow) = GrpcUuid.Halves(reader.GetGuid(1));
        row.Status = reader.GetString(2);
        row.Total = reader.GetString(3);
        if (reader.IsDBNull(4))
        {
            row.ClearDiscount();
        }

        else
        {
            row.Discount = reader.GetString(4);
        }

        row.ExchangeRate = reader.GetString(5);
        row.Currency = reader.GetString(6);
        row.PlacedAt = reader.GetFieldValue<long>(7);
        if (reader.IsDBNull(8))
        {
            row.ClearDeliveryDate();
        }

        else
        {
            row.DeliveryDate = reader.GetFieldValue<int>(8);
        }

        FillTags(row, reader);
        row.Attributes = reader.GetString(12);
        if (reader.IsDBNull(13))
        {
            row.ClearNote();
        }

        else
        {
            row.Note = reader.GetString(13);
        }

        // Wrapped, not copied: the array is Npgsql's fresh copy, never changed after.
        if (reader.IsDBNull(14))
        {
            row.ClearAttachment();
        }

        else
        {
            row.Attachment = UnsafeByteOperations.UnsafeWrap(reader.GetFieldValue<byte[]>(14));
        }

        row.ItemCount = reader.GetInt32(15);
        row.IsGift = reader.GetBoolean(16);
        row.ShippingAddress = reader.GetString(17);
    }

    /// <summary>Columns 9–11: the array's dimensions and lower bound (NULL for the empty array), then its elements.</summary>
    private static void FillTags(OrderRow row, DbDataReader reader)
    {
        var dimensions = reader.IsDBNull(9) ? 0 : reader.GetInt32(9);
        var lowerBound = reader.IsDBNull(10) ? 1 : reader.GetInt32(10);
        if (dimensions > 1)
        {
            row.TagsDimensions = dimensions;
        }

        else
        {
            row.ClearTagsDimensions();
        }

        if (lowerBound != 1)
        {
            row.TagsLowerBound = lowerBound;
        }

        else
        {
            row.ClearTagsLowerBound();
        }

        row.Tags.Clear();
        row.TagsNullAt.Clear();
        // Npgsql reads more dimensions as a multidimensional array, enumerated in row-major order.
        var elements = dimensions > 1 ? (System.Collections.IEnumerable)reader.GetValue(11) : reader.GetFieldValue<string?[]>(11);
        foreach (string? element in elements)
        {
            if (element is null)
            {
                row.TagsNullAt.Add((uint)row.Tags.Count);
            }

            row.Tags.Add(element ?? "");
        }
    }
}
