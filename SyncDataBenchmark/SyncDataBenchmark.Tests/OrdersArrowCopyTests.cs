using Apache.Arrow.Ipc;
using SomeService.Fetch;
using SomeService.Tables;
using SyncData.Arrow;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: orders' Arrow batches encoded as binary COPY (OrdersArrowCopyColumns) parse back, as PostgreSQL's COPY would, to the same values.</summary>
[Trait("Tier", "Fast")]
public sealed class OrdersArrowCopyTests
{
    [Fact]
    public async Task Orders_batches_encoded_as_COPY_parse_back_to_the_same_values()
    {
        using var arrow = new MemoryStream();
        using (var writer = new ArrowStreamWriter(arrow, OrdersArrow.Schema, leaveOpen: true))
        {
            var rows = new OrdersArrow();
            rows.Append(7, Guid.Parse("0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"), "shipped", "-1234.5000", null, "0.00012300", "EUR",
                0, -1, ["a", null, ""], """{"k": "é"}""", null, [0, 1, 0], 3, true, "Straße 1");
            rows.Append(8, Guid.Empty, "paid", "0.0000", "10.0000", "1", "USD", 1, null, [], "[]", "n", [], 0, false, "");
            using var batch = rows.Build();
            writer.WriteRecordBatch(batch);
            writer.WriteEnd();
        }

        arrow.Position = 0;
        var orders = new List<SyncData.Shared.Order>();
        await using (var copy = new ArrowCopyStream(arrow, ArrowBatchReader.ReadAsync(arrow, "orders/arrow", OrdersArrow.Mismatch, CancellationToken.None), OrdersArrowCopyColumns.Orders, CancellationToken.None))
        {
            await foreach (var order in BinaryCopyReader.ReadAsync(copy, OrdersRowTable.Instance, CancellationToken.None))
            {
                orders.Add(order);
            }
        }

        var (first, second) = (orders[0], orders[1]);
        Assert.Equal((7L, -1234.5000m, (decimal?)null, 0.00012300m, "EUR"), (first.Id, first.Total, first.Discount, first.ExchangeRate, first.Currency));
        Assert.Equal("-1234.5000", first.Total.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(new DateTime(2000, 1, 1), first.PlacedAt);
        Assert.Equal(new DateOnly(1999, 12, 31), first.DeliveryDate);
        Assert.Equal(new string?[] { "a", null, "" }, first.Tags.AsEnumerable());
        Assert.Equal("""{"k": "é"}""", first.Attributes);
        Assert.Equal((null, 3, true, "Straße 1"), (first.Note, first.ItemCount, first.IsGift, first.ShippingAddress));
        Assert.Equal([0, 1, 0], first.Attachment);
        Assert.Equal((8L, 0.0000m, (decimal?)10.0000m, 1m), (second.Id, second.Total, second.Discount, second.ExchangeRate));
        Assert.Equal(((DateOnly?)null, 0, "n"), (second.DeliveryDate, second.Tags.Length, second.Note));
    }
}
