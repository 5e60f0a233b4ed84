using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace SomeService.Fetch;

/// <summary>
/// The framing of PostgreSQL's binary COPY format, the one place that knows it: signature, flags, header extension,
/// each tuple's field count, each field's length, the trailer (-1). Fed the bytes as they arrive, in spans cut
/// anywhere, it keeps a few integers and no bytes (a length word cut between two spans is finished from the next).
/// It reports each tuple and, to the row reader, each field with its bytes (which the reader decodes in place); for
/// the raw relay's tuple counter it skips the fields' bytes. A format error is reported, not thrown: the relay leaves
/// malformed bytes to PostgreSQL, the reader throws. What the fields hold (types, NULLs) is the caller's business.
/// </summary>
/// <param name="columns">The expected columns, to check each tuple's field count and name a field; null: any.</param>
/// <param name="reportsFields">Whether <see cref="Next"/> stops at each field (the reader) or only at each tuple (the counter).</param>
internal sealed class BinaryCopyFraming(string[]? columns, bool reportsFields)
{
    public enum Token { More, Tuple, Field, Trailer, Fault }

    private enum Phase { Signature, Flags, ExtensionLength, FieldCount, FieldLength, Ended, Faulted }

    private static readonly byte[] Signature = [(byte)'P', (byte)'G', (byte)'C', (byte)'O', (byte)'P', (byte)'Y', (byte)'\n', 0xFF, (byte)'\r', (byte)'\n', 0];

    private Phase _phase = Phase.Signature;
    private int _signatureRead;
    private int _wordLength = 4; // the next word: 2 bytes for a field count, 4 for the rest
    private int _wordRead; // bytes of a word cut between two spans, kept in _word
    private uint _word;
    private int _skip; // bytes left of the header extension or of the current field
    private int _fieldsLeft;

    /// <summary>1-based number of the current tuple.</summary>
    public long Tuple { get; private set; }

    /// <summary>0-based index of the current field in its tuple.</summary>
    public int Field { get; private set; }

    /// <summary>The current field's length in bytes; -1 is NULL.</summary>
    public int FieldLength { get; private set; }

    public string? Fault { get; private set; }

    /// <summary>
    /// Reads <paramref name="data"/> from <paramref name="at"/> up to the next tuple, field (if reported), trailer or
    /// fault, or to its end (<see cref="Token.More"/>). A reported field comes with its bytes that are in
    /// <paramref name="data"/> (all, or those before it ends: <see cref="TakeFieldBytes"/> takes the rest from the next
    /// span); the bytes of a field not reported are skipped.
    /// </summary>
    public Token Next(ReadOnlySpan<byte> data, ref int at, out ReadOnlySpan<byte> fieldBytes)
    {
        fieldBytes = default;
        if (_phase >= Phase.Ended)
        {
            return _phase == Phase.Ended ? Token.Trailer : Token.Fault;
        }

        while (at < data.Length)
        {
            if (_skip != 0)
            {
                var n = Math.Min(_skip, data.Length - at);
                at += n;
                _skip -= n;
                continue;
            }

            if (_phase < Phase.FieldCount)
            {
                var header = NextInHeader(data, ref at);
                if (header != Token.More)
                {
                    return header;
                }

                continue;
            }

            if (!TryReadWord(data, ref at, out var word))
            {
                return Token.More;
            }

            if (_phase == Phase.FieldCount)
            {
                return OnFieldCount((short)word);
            }

            var token = OnFieldLength((int)word);
            if (token != Token.More)
            {
                fieldBytes = token == Token.Field ? TakeFieldBytes(data, ref at) : default;
                return token;
            }
        }

        return Token.More;
    }

    /// <summary>Takes the current field's bytes that are in <paramref name="data"/> (all that are left, or those before it ends).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReadOnlySpan<byte> TakeFieldBytes(ReadOnlySpan<byte> data, ref int at)
    {
        var n = Math.Min(_skip, data.Length - at);
        var bytes = data.Slice(at, n);
        at += n;
        _skip -= n;
        return bytes;
    }

    private Token NextInHeader(ReadOnlySpan<byte> data, ref int at)
    {
        if (_phase == Phase.Signature)
        {
            if (data[at] != Signature[_signatureRead])
            {
                return Fail("The body is not PostgreSQL binary COPY (bad signature).");
            }

            at++;
            if (++_signatureRead == Signature.Length)
            {
                _phase = Phase.Flags;
            }

            return Token.More;
        }

        if (!TryReadWord(data, ref at, out var word))
        {
            return Token.More;
        }

        return _phase == Phase.Flags ? OnFlags((int)word) : OnExtensionLength((int)word);
    }

    /// <summary>Reads the big-endian word the phase expects; false when <paramref name="data"/> ends inside it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryReadWord(ReadOnlySpan<byte> data, ref int at, out uint word)
    {
        if (_wordRead == 0 && data.Length - at >= _wordLength)
        {
            // The whole word is in this span (the usual case).
            word = _wordLength == 2 ? BinaryPrimitives.ReadUInt16BigEndian(data[at..]) : BinaryPrimitives.ReadUInt32BigEndian(data[at..]);
            at += _wordLength;
            return true;
        }

        return TryReadCutWord(data, ref at, out word);
    }

    /// <summary>A word cut between two spans: its bytes so far are kept in <see cref="_word"/>.</summary>
    private bool TryReadCutWord(ReadOnlySpan<byte> data, ref int at, out uint word)
    {
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
                word = _word;
                return true;
            }
        }

        word = 0;
        return false;
    }

    private Token OnFlags(int flags)
    {
        // Bits 16-31 are critical format flags (16 = OIDs included); none is expected from COPY of a plain table.
        if ((flags & unchecked((int)0xFFFF0000)) != 0)
        {
            return Fail($"COPY header has unsupported flags 0x{flags:X8}.");
        }

        _phase = Phase.ExtensionLength;
        return Token.More;
    }

    private Token OnExtensionLength(int length)
    {
        if (length < 0)
        {
            return Fail($"COPY header extension length {length} is invalid.");
        }

        _skip = length;
        Expect(Phase.FieldCount);
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

        _fieldsLeft = fields;
        Field = -1;
        if (fields > 0)
        {
            Expect(Phase.FieldLength);
        }

        return Token.Tuple;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Token OnFieldLength(int length)
    {
        Field++;
        FieldLength = length;
        if (length < -1)
        {
            return FieldLengthFault(length);
        }

        _skip = length > 0 ? length : 0; // -1 is NULL: no bytes
        if (--_fieldsLeft == 0)
        {
            Expect(Phase.FieldCount);
        }

        return reportsFields ? Token.Field : Token.More;
    }

    private Token FieldLengthFault(int length)
    {
        var field = columns is null ? $"field {Field + 1}" : columns[Field];
        return Fail($"COPY tuple {Tuple:N0}: {field} has length {length}; expected ≥ 0.");
    }

    private void Expect(Phase phase)
    {
        _phase = phase;
        _wordLength = phase == Phase.FieldCount ? 2 : 4;
    }

    private Token Fail(string fault)
    {
        Fault = fault;
        _phase = Phase.Faulted;
        return Token.Fault;
    }
}
