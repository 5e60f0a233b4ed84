using SomeService.Fetch;
using SyncData.Grpc;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: GrpcStream's orders message becomes an Order exactly, or is refused by row, column and value.</summary>
[Trait("Tier", "Fast")]
public sealed class OrdersMessagesTests
{
    private static OrderRow Message() => new()
    {
        Id = 7, Status = "paid", Total = "1.50", ExchangeRate = "1", Currency = "EUR", PlacedAt = 0, Attributes = "{}", ShippingAddress = "",
    };

    [Theory]
    [InlineData("1.50")]
    [InlineData("-0.0001")]
    [InlineData("0.0000")]
    [InlineData("79228162514264337593543950335")]
    [InlineData("7.9228162514264337593543950335")]
    [InlineData("0.0000000000000000000000000001")]
    public void A_numeric_decimal_holds_arrives_with_its_scale(string numeric)
    {
        var message = Message();
        message.ExchangeRate = numeric;
        Assert.Equal(numeric, OrdersGrpcRows.ToOrder(message).ExchangeRate.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    [Theory]
    [InlineData("NaN")]
    [InlineData("-Infinity")]
    [InlineData("79228162514264337593543950336")] // 2^96
    [InlineData("0.00000000000000000000000000001")] // 29 places: the parser would round it to 0
    [InlineData("1234567890.12345678901234567890")] // 30 digits: the parser would round the last one
    public void A_numeric_decimal_cannot_hold_is_refused_by_row_column_and_value(string numeric)
    {
        var message = Message();
        message.ExchangeRate = numeric;
        var refused = Assert.Throws<SourceStreamException>(() => OrdersGrpcRows.ToOrder(message));
        Assert.StartsWith($"row 7: exchange_rate = {numeric} cannot be carried", refused.Message);
    }

    [Fact]
    public void Array_NULL_elements_stay_where_they_were_and_a_shape_string_array_cannot_hold_is_refused()
    {
        var message = Message();
        message.Tags.Add(["", "a", "", ""]);
        message.TagsNullAt.Add([0, 3]);
        Assert.Equal(new string?[] { null, "a", "", null }, OrdersGrpcRows.ToOrder(message).Tags);

        message.TagsLowerBound = 0;
        Assert.StartsWith("row 7: tags = an array of 1 dimension(s), the first from 0 cannot be carried",
            Assert.Throws<SourceStreamException>(() => OrdersGrpcRows.ToOrder(message)).Message);
    }

    [Theory]
    [InlineData(int.MaxValue, "9999-12-31")] // infinity: DateOnly.MaxValue, which Npgsql writes as infinity
    [InlineData(-730_118, "0001-01-02")]
    [InlineData(2_921_938, "9999-12-30")]
    public void A_date_DateOnly_holds_arrives_exactly(int days, string expected)
    {
        var message = Message();
        message.DeliveryDate = days;
        Assert.Equal(expected, OrdersGrpcRows.ToOrder(message).DeliveryDate!.Value.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture));
    }

    [Theory]
    [InlineData(-730_119, "0001-01-01")] // DateOnly.MinValue would be written back as -infinity
    [InlineData(2_921_939, "9999-12-31")]
    public void A_date_DateOnly_cannot_tell_from_infinity_is_refused(int days, string printed)
    {
        var message = Message();
        message.DeliveryDate = days;
        Assert.StartsWith($"row 7: delivery_date = {printed} cannot be carried", Assert.Throws<SourceStreamException>(() => OrdersGrpcRows.ToOrder(message)).Message);
    }

    [Fact]
    public void Absent_optional_fields_are_NULL_and_present_empty_ones_are_not()
    {
        var message = Message();
        Assert.Null(OrdersGrpcRows.ToOrder(message).Attachment);
        Assert.Null(OrdersGrpcRows.ToOrder(message).Note);
        Assert.Null(OrdersGrpcRows.ToOrder(message).Discount);
        Assert.Null(OrdersGrpcRows.ToOrder(message).DeliveryDate);
        message.Attachment = Google.Protobuf.ByteString.Empty;
        message.Note = "";
        Assert.Empty(OrdersGrpcRows.ToOrder(message).Attachment!);
        Assert.Equal("", OrdersGrpcRows.ToOrder(message).Note);
        Assert.Equal(OrderStatus.Paid, OrdersGrpcRows.ToOrder(message).Status);
    }
}
