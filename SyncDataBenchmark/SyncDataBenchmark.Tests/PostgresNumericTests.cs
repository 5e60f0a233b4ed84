using System.Buffers.Binary;
using SomeService.Fetch;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: PostgreSQL's binary numeric (as `numeric_send` writes it: digit count, weight, sign, display scale,
/// base-10000 digits) read into decimal exactly or refused, and named as PostgreSQL prints it.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class PostgresNumericTests
{
    private const ushort Negative = 0x4000;

    private static byte[] Numeric(short weight, ushort sign, ushort scale, params ushort[] digits)
    {
        var bytes = new byte[8 + 2 * digits.Length];
        BinaryPrimitives.WriteInt16BigEndian(bytes, (short)digits.Length);
        BinaryPrimitives.WriteInt16BigEndian(bytes.AsSpan(2), weight);
        BinaryPrimitives.WriteUInt16BigEndian(bytes.AsSpan(4), sign);
        BinaryPrimitives.WriteUInt16BigEndian(bytes.AsSpan(6), scale);
        for (var i = 0; i < digits.Length; i++)
        {
            BinaryPrimitives.WriteUInt16BigEndian(bytes.AsSpan(8 + 2 * i), digits[i]);
        }

        return bytes;
    }

    public static TheoryData<byte[], string> Carried => new()
    {
        { Numeric(0, 0, 4, 1, 5000), "1.5000" },                                     // the scale is kept
        { Numeric(0, 0, 0), "0" },
        { Numeric(0, 0, 3), "0.000" },
        { Numeric(-1, Negative, 4, 1), "-0.0001" },
        { Numeric(3, 0, 4, 999, 9999, 9999, 9999, 9999), "999999999999999.9999" },   // numeric(19,4)'s largest
        { Numeric(7, 0, 0, 7, 9228, 1625, 1426, 4337, 5935, 4395, 335), "79228162514264337593543950335" }, // decimal.MaxValue
        { Numeric(-7, 0, 28, 1), "0.0000000000000000000000000001" },                  // 28 places
        { Numeric(0, 0, 18, 0, 9496, 2815, 8481, 7426, 3800), "0.949628158481742638" }, // a seed_orders exchange_rate
    };

    public static TheoryData<byte[], string> Refused => new()
    {
        { Numeric(0, 0xC000, 0), "NaN" },
        { Numeric(0, 0xD000, 32), "Infinity" }, // PostgreSQL 15's numeric_send gives the infinities display scale 32
        { Numeric(0, 0xF000, 32), "-Infinity" },
        { Numeric(7, 0, 0, 7, 9228, 1625, 1426, 4337, 5935, 4395, 336), "79228162514264337593543950336" }, // 2^96
        { Numeric(-8, 0, 29, 1000), "0.00000000000000000000000000001" },            // 29 places
        { Numeric(2, 0, 20, 12, 3456, 7890, 1234, 5678, 9012, 3456, 7890), "1234567890.12345678901234567890" },
    };

    [Theory]
    [MemberData(nameof(Carried))]
    public void A_numeric_decimal_holds_arrives_exactly_with_its_scale(byte[] field, string text)
    {
        var value = PostgresNumeric.ToDecimal(field);
        Assert.NotNull(value);
        Assert.Equal(text, value.Value.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(text, PostgresNumeric.Format(field));
    }

    [Theory]
    [MemberData(nameof(Refused))]
    public void A_numeric_decimal_cannot_hold_is_refused_and_named_as_PostgreSQL_prints_it(byte[] field, string text)
    {
        Assert.Null(PostgresNumeric.ToDecimal(field));
        Assert.Equal(text, PostgresNumeric.Format(field));
    }

    /// <summary>
    /// ArrowStream's raw path writes numeric's text as numeric_send's bytes, decimal's range or not: canonical (no
    /// leading or trailing zero digit), so equal to the fields above but the one that keeps a leading zero digit (which
    /// PostgreSQL reads as the same value; NumericSendTests compares with numeric_send itself), and read back as the text.
    /// </summary>
    [Theory]
    [MemberData(nameof(Carried))]
    [MemberData(nameof(Refused))]
    public void Numeric_text_is_written_as_numeric_send_writes_it(byte[] field, string text)
    {
        var leadingZeroDigit = field.Length > 8 && field[8] == 0 && field[9] == 0;
        if (!leadingZeroDigit)
        {
            Assert.Equal(field, Binary(text));
        }

        Assert.Equal(text, PostgresNumeric.Format(Binary(text)));
    }

    [Theory]
    [InlineData("0012.3400", "12.3400")] // leading zeros are no digit; the scale is the text's
    [InlineData("-0", "0")] // zero has no sign
    public void Numeric_text_is_written_canonically(string text, string canonical) =>
        Assert.Equal(Binary(canonical), Binary(text));

    [Theory]
    [InlineData("")]
    [InlineData("1e5")]
    [InlineData("nan")]
    public void Text_that_is_not_numeric_is_refused(string text) =>
        Assert.Throws<FormatException>(() => Binary(text));

    internal static byte[] Binary(string text)
    {
        var utf8 = System.Text.Encoding.UTF8.GetBytes(text);
        var to = new byte[PostgresNumeric.MaxBinaryLength(utf8.Length)];
        return to[..PostgresNumeric.WriteFromText(utf8, to)];
    }
}
