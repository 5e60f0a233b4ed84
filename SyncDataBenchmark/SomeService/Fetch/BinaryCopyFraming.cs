using System.Buffers.Binary;

namespace SomeService.Fetch;

/// <summary>
/// The framing of PostgreSQL's binary COPY format, the one place that knows it: signature, flags, header extension,
/// each tuple's field count, each field's length, the trailer (-1). Fed the bytes as they arrive, in spans cut
/// anywhere, it keeps a few integers and no bytes (a length word cut between two spans is finished from the next).
/// It reports each tuple and each field; the caller may take the field's bytes (the row reader decodes them) or leave
/// them to be skipped (the raw relay's tuple counter). A format error is reported, not thrown: the relay leaves
/// malformed bytes to PostgreSQL, the reader throws. What the fields hold (types, NULLs) is the caller's business.
/// </summary>
/// <param name="columns">The expected columns, to check each tuple's field count and name a field; null: any.</param>
internal sealed class BinaryCopyFraming(string[]? columns)
{
    public enum Token { More, Tuple, Field, Trailer, Fault }

    private enum Phase { Signature, Flags, ExtensionLength, Extension, FieldCount, FieldLength, FieldBytes, Ended, Faulted }

    private static readonly byte[] Signature = [(byte)'P', (byte)'G', (byte)'C', (byte)'O', (byte)'P', (byte)'Y', (byte)'\n', 0xFF, (byte)'\r', (byte)'\n', 0];

    private Phase _phase = Phase.Signature;
    private int _signatureRead;
    private int _wordLength = 4;
    private int _wordRead;
    private uint _word;
    private long _skip; // bytes left in the header extension or the current field
    private int _fieldCount;

    /// <summary>1-based number of the current tuple.</summary>
    public long Tuple { get; private set; }

    /// <summary>0-based index of the current field in its tuple.</summary>
    public int Field { get; private set; }

    /// <summary>The current field's length in bytes; -1 is NULL.</summary>
    public int FieldLength { get; private set; }

    public string? Fault { get; private set; }

    /// <summary>Reads <paramref name="data"/> from <paramref name="at"/> up to the next tuple, field, trailer or fault, or to its end (<see cref="Token.More"/>).</summary>
    public Token Next(ReadOnlySpan<byte> data, ref int at)
    {
        while (at < data.Length || _phase >= Phase.Ended)
        {
            switch (_phase)
            {
                case Phase.Ended:
                    return Token.Trailer;
                case Phase.Faulted:
                    return Token.Fault;
                case Phase.Signature:
                    if (!MatchesSignature(data[at++]))
                    {
                        return Fail("The body is not PostgreSQL binary COPY (bad signature).");
                    }

                    continue;
                case Phase.Extension or Phase.FieldBytes:
                    SkipBytes(data, ref at);
                    continue;
            }

            if (!TryReadWord(data, ref at))
            {
                return Token.More;
            }

            var token = OnWord();
            if (token != Token.More)
            {
                return token;
            }
        }

        return Token.More;
    }

    /// <summary>Takes the current field's bytes that are in <paramref name="data"/> (all or its first part); empty when it has none left.</summary>
    public ReadOnlySpan<byte> TakeFieldBytes(ReadOnlySpan<byte> data, ref int at)
    {
        if (_phase != Phase.FieldBytes)
        {
            return default;
        }

        var start = at;
        SkipBytes(data, ref at);
        return data[start..at];
    }

    private bool MatchesSignature(byte value)
    {
        if (value != Signature[_signatureRead])
        {
            return false;
        }

        if (++_signatureRead == Signature.Length)
        {
            _phase = Phase.Flags;
        }

        return true;
    }

    private void SkipBytes(ReadOnlySpan<byte> data, ref int at)
    {
        var n = (int)Math.Min(_skip, data.Length - at);
        at += n;
        _skip -= n;
        if (_skip == 0)
        {
            EndOfSkip();
        }
    }

    private void EndOfSkip()
    {
        if (_phase == Phase.Extension || Field == _fieldCount - 1)
        {
            Expect(Phase.FieldCount, 2);
        }
        else
        {
            Expect(Phase.FieldLength, 4);
        }
    }

    private void Expect(Phase phase, int wordLength)
    {
        _phase = phase;
        _wordLength = wordLength;
    }

    /// <summary>Reads the big-endian word the phase expects; false when <paramref name="data"/> ends inside it (its bytes so far are kept).</summary>
    private bool TryReadWord(ReadOnlySpan<byte> data, ref int at)
    {
        if (_wordRead == 0 && data.Length - at >= _wordLength)
        {
            // The whole word is in this span (the usual case).
            _word = _wordLength == 2 ? BinaryPrimitives.ReadUInt16BigEndian(data[at..]) : BinaryPrimitives.ReadUInt32BigEndian(data[at..]);
            at += _wordLength;
            return true;
        }

        if (_wordRead == 0)
        {
            _word = 0;
        }

        while (at < data.Length)
        {
            _word = (_word << 8) | data[at++];
            if (++_wordRead == _wordLength)
            {
                _wordRead = 0;
                return true;
            }
        }

        return false;
    }

    private Token OnWord() => _phase switch
    {
        Phase.Flags => OnFlags((int)_word),
        Phase.ExtensionLength => OnExtensionLength((int)_word),
        Phase.FieldCount => OnFieldCount((short)_word),
        _ => OnFieldLength((int)_word),
    };

    private Token OnFlags(int flags)
    {
        // Bits 16-31 are critical format flags (16 = OIDs included); none is expected from COPY of a plain table.
        if ((flags & unchecked((int)0xFFFF0000)) != 0)
        {
            return Fail($"COPY header has unsupported flags 0x{flags:X8}.");
        }

        Expect(Phase.ExtensionLength, 4);
        return Token.More;
    }

    private Token OnExtensionLength(int length)
    {
        if (length < 0)
        {
            return Fail($"COPY header extension length {length} is invalid.");
        }

        _phase = Phase.Extension;
        _skip = length;
        if (length == 0)
        {
            EndOfSkip();
        }

        return Token.More;
    }

    private Token OnFieldCount(short fields)
    {
        if (fields == -1)
        {
            _phase = Phase.Ended;
            return Token.Trailer;
        }

        Tuple++;
        if (fields < 0 || (columns is not null && fields != columns.Length))
        {
            var expected = columns is null ? "≥ 0" : $"{columns.Length} ({string.Join(", ", columns)})";
            return Fail($"COPY tuple {Tuple:N0} has {fields} fields; expected {expected}.");
        }

        _fieldCount = fields;
        Field = -1;
        Expect(fields == 0 ? Phase.FieldCount : Phase.FieldLength, fields == 0 ? 2 : 4);
        return Token.Tuple;
    }

    private Token OnFieldLength(int length)
    {
        Field++;
        FieldLength = length;
        if (length < -1)
        {
            var field = columns is null ? $"field {Field + 1}" : columns[Field];
            return Fail($"COPY tuple {Tuple:N0}: {field} has length {length}; expected ≥ 0.");
        }

        _phase = Phase.FieldBytes;
        _skip = Math.Max(length, 0); // -1 is NULL: no bytes
        if (_skip == 0)
        {
            EndOfSkip();
        }

        return Token.Field;
    }

    private Token Fail(string fault)
    {
        Fault = fault;
        _phase = Phase.Faulted;
        return Token.Fault;
    }
}
