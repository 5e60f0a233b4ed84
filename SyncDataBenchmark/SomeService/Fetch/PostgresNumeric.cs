using System.Buffers.Binary;
using System.Numerics;
using System.Text;

namespace SomeService.Fetch;

/// <summary>
/// PostgreSQL's binary numeric (digit count, weight, sign, display scale, base-10000 digits) as a .NET decimal when
/// it is one exactly, and its text form for an error when it is not. decimal is a 96-bit integer over 10^0..10^28, so
/// NaN, ±Infinity, a display scale above 28 or an unscaled value of 2^96 or more cannot be carried; the scale is kept
/// (1.50 stays 1.50, as numeric prints it).
/// </summary>
public static class PostgresNumeric
{
    private const ushort Negative = 0x4000;
    private const ushort NaN = 0xC000;
    private const ushort PositiveInfinity = 0xD000;
    private const ushort NegativeInfinity = 0xF000;
    private const int SpecialScale = 32;
    private static readonly UInt128 DecimalLimit = (UInt128)1 << 96;

    /// <summary>The most bytes <see cref="WriteFromText"/> writes for a text of <paramref name="textLength"/> bytes.</summary>
    public static int MaxBinaryLength(int textLength) => 8 + 2 * (textLength / 4 + 2);

    /// <summary>
    /// numeric's text as PostgreSQL prints it ([-]digits[.digits], NaN, Infinity, -Infinity) as numeric_send writes it:
    /// base-10000 digits grouped from the decimal point, leading and trailing zero digits stripped (zero: no digits,
    /// weight 0, positive), the display scale the number of fraction digits; every digit kept, so exact at any length.
    /// Returns the bytes written.
    /// </summary>
    public static int WriteFromText(ReadOnlySpan<byte> text, Span<byte> to)
    {
        var special = text switch
        {
            _ when text.SequenceEqual("NaN"u8) => NaN,
            _ when text.SequenceEqual("Infinity"u8) => PositiveInfinity,
            _ when text.SequenceEqual("-Infinity"u8) => NegativeInfinity,
            _ => (ushort)0,
        };
        if (special != 0)
        {
            // numeric_send's own display scale for the infinities (numeric_recv ignores it for the special values).
            WriteHeader(to, 0, 0, special, special == NaN ? 0 : SpecialScale);
            return 8;
        }

        var negative = text.Length > 0 && text[0] == (byte)'-';
        var unsigned = negative ? text[1..] : text;
        var point = unsigned.IndexOf((byte)'.');
        var integer = point < 0 ? unsigned : unsigned[..point];
        var fraction = point < 0 ? [] : unsigned[(point + 1)..];
        if (integer.IsEmpty && fraction.IsEmpty || integer.ContainsAnyExceptInRange((byte)'0', (byte)'9') || fraction.ContainsAnyExceptInRange((byte)'0', (byte)'9'))
        {
            throw new FormatException($"'{Encoding.UTF8.GetString(text)}' is not numeric's text.");
        }

        var integerGroups = (integer.Length + 3) / 4;
        var groups = integerGroups + (fraction.Length + 3) / 4;
        var digits = to[8..];
        WriteGroups(integer, fraction, integerGroups, groups, digits);
        var (first, kept) = Trim(digits, groups);
        var zero = kept == 0;
        WriteHeader(to, kept, zero ? 0 : integerGroups - 1 - first, negative && !zero ? Negative : (ushort)0, fraction.Length);
        return 8 + 2 * kept;
    }

    /// <summary>The base-10000 digits of integer.fraction, four decimal digits a group, the integer part padded on the left, the fraction on the right.</summary>
    private static void WriteGroups(ReadOnlySpan<byte> integer, ReadOnlySpan<byte> fraction, int integerGroups, int groups, Span<byte> digits)
    {
        for (var g = 0; g < groups; g++)
        {
            // Digit g covers the decimal digits at offsets [4g, 4g+4) from the first integer group's padded start.
            var value = 0;
            for (var d = 4 * g - (4 * integerGroups - integer.Length); d < 4 * g + 4 - (4 * integerGroups - integer.Length); d++)
            {
                var at = d - integer.Length;
                var digit = d < 0 ? 0 : d < integer.Length ? integer[d] - '0' : at < fraction.Length ? fraction[at] - '0' : 0;
                value = value * 10 + digit;
            }

            BinaryPrimitives.WriteInt16BigEndian(digits[(2 * g)..], (short)value);
        }
    }

    /// <summary>Leading and trailing zero groups dropped (numeric_send's form): the kept groups moved to the start; the first kept group's index and how many.</summary>
    private static (int First, int Kept) Trim(Span<byte> digits, int groups)
    {
        var first = 0;
        while (first < groups && Digit(digits, first) == 0)
        {
            first++;
        }

        var last = groups;
        while (last > first && Digit(digits, last - 1) == 0)
        {
            last--;
        }

        var kept = last - first;
        digits.Slice(2 * first, 2 * kept).CopyTo(digits);
        return (first, kept);
    }

    private static int Digit(ReadOnlySpan<byte> digits, int index) => BinaryPrimitives.ReadInt16BigEndian(digits[(2 * index)..]);

    private static void WriteHeader(Span<byte> to, int digits, int weight, ushort sign, int scale)
    {
        BinaryPrimitives.WriteInt16BigEndian(to, checked((short)digits));
        BinaryPrimitives.WriteInt16BigEndian(to[2..], checked((short)weight));
        BinaryPrimitives.WriteUInt16BigEndian(to[4..], sign);
        BinaryPrimitives.WriteInt16BigEndian(to[6..], checked((short)scale));
    }

    /// <summary>The value, or null when decimal cannot hold it exactly.</summary>
    public static decimal? ToDecimal(ReadOnlySpan<byte> field)
    {
        var (digits, exponent, sign, scale) = Header(field);
        if (sign is not (0 or Negative) || scale > 28)
        {
            return null;
        }

        // The unscaled value: the digits as one integer times 10^exponent, kept under 2^96 all the way.
        UInt128 unscaled = 0;
        for (var i = 0; i < digits; i++)
        {
            unscaled = unscaled * 10_000 + BinaryPrimitives.ReadUInt16BigEndian(field[(8 + 2 * i)..]);
            if (unscaled >= DecimalLimit * 10_000)
            {
                return null;
            }
        }

        for (; exponent > 0; exponent--)
        {
            unscaled *= 10;
            if (unscaled >= DecimalLimit)
            {
                return null;
            }
        }

        for (; exponent < 0; exponent++)
        {
            // Digits past the display scale are zeros in what PostgreSQL sends; anything else is not this value.
            if (unscaled % 10 != 0)
            {
                return null;
            }

            unscaled /= 10;
        }

        if (unscaled >= DecimalLimit)
        {
            return null;
        }

        return new decimal((int)(uint)unscaled, (int)(uint)(unscaled >> 32), (int)(uint)(unscaled >> 64), sign == Negative, (byte)scale);
    }

    /// <summary>The value as PostgreSQL prints it: NaN, Infinity, -Infinity, or its digits with the display scale.</summary>
    public static string Format(ReadOnlySpan<byte> field)
    {
        var (digits, exponent, sign, scale) = Header(field);
        switch (sign)
        {
            case NaN: return "NaN";
            case PositiveInfinity: return "Infinity";
            case NegativeInfinity: return "-Infinity";
        }

        var unscaled = BigInteger.Zero;
        for (var i = 0; i < digits; i++)
        {
            unscaled = unscaled * 10_000 + BinaryPrimitives.ReadUInt16BigEndian(field[(8 + 2 * i)..]);
        }

        unscaled = exponent >= 0 ? unscaled * BigInteger.Pow(10, exponent) : unscaled / BigInteger.Pow(10, -exponent);
        var text = unscaled.ToString().PadLeft(scale + 1, '0');
        var result = new StringBuilder(sign == Negative ? "-" : "");
        result.Append(text, 0, text.Length - scale);
        if (scale > 0)
        {
            result.Append('.').Append(text, text.Length - scale, scale);
        }

        return result.ToString();
    }

    /// <summary>The digit count, the power of ten the digits as one integer must be scaled by to give the unscaled value, the sign word and the display scale.</summary>
    private static (int Digits, int Exponent, ushort Sign, int Scale) Header(ReadOnlySpan<byte> field)
    {
        var digits = BinaryPrimitives.ReadInt16BigEndian(field);
        var weight = BinaryPrimitives.ReadInt16BigEndian(field[2..]);
        var sign = BinaryPrimitives.ReadUInt16BigEndian(field[4..]);
        var scale = BinaryPrimitives.ReadUInt16BigEndian(field[6..]);
        if (field.Length != 8 + 2 * digits)
        {
            throw new SourceStreamException($"A numeric field of {field.Length} bytes announces {digits} digits.");
        }

        // value = Σ digit_i × 10000^(weight − i); unscaled = value × 10^scale.
        return (digits, 4 * (weight - digits + 1) + scale, sign, scale);
    }
}
