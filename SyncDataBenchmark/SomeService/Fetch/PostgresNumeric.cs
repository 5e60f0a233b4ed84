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
    private static readonly UInt128 DecimalLimit = (UInt128)1 << 96;

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
