using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// ArrowStream's raw path encodes numeric's text itself (PostgresNumeric.WriteFromText): checked here against
/// PostgreSQL's own numeric_send of the same values, the long and special ones the fast tier's table does not hold.
/// </summary>
[Collection(OrdersCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class NumericSendTests(OrdersLab lab)
{
    [Theory]
    [InlineData("NaN")]
    [InlineData("Infinity")]
    [InlineData("-Infinity")]
    [InlineData("0")]
    [InlineData("0.00000")]
    [InlineData("-1")]
    [InlineData("10000")]
    [InlineData("100000000.00000001")]
    [InlineData("-0.000000000000000000000000000000000000001")]
    [InlineData("123456789012345678901234567890123456789012345678901234567890.123456789012345678901234567890123456789")]
    [InlineData("999999999999999.9999")]
    public async Task Numeric_text_is_encoded_as_PostgreSQL_sends_it(string text)
    {
        var sent = (byte[]?)await Lab.ScalarAsync(lab.SourceDb, "select numeric_send($1::numeric)", [text]);
        Assert.Equal(sent, PostgresNumericTests.Binary(text));
    }
}
