using System.Buffers;

namespace SomeService.Fetch;

/// <summary>
/// Decodes one table's rows of a binary COPY body fed in pieces as they arrive: <see cref="BinaryCopyFraming"/> finds
/// each field, this checks it against its column (NULL where the column is NOT NULL, a fixed width) and hands it to the
/// table's decoder straight from the piece; only a field cut between two pieces is copied (into a pooled buffer) to be
/// decoded whole. A row's fields are kept by the table's decoder until its last one arrives.
/// </summary>
public abstract class CopyRowDecoder<TRow> : IDisposable
{
    private readonly string[] _columns;
    private readonly int[] _fixedLengths;
    private readonly bool[] _nullable;
    private readonly BinaryCopyFraming _framing;
    private byte[]? _cutField; // the bytes so far of a field cut between two pieces
    private int _cutFieldRead;

    /// <param name="columns">The COPY's columns in order.</param>
    /// <param name="fixedLengths">Each column's width in bytes; -1 for any.</param>
    /// <param name="nullable">Which columns may be NULL.</param>
    protected CopyRowDecoder(string[] columns, int[] fixedLengths, bool[] nullable)
    {
        (_columns, _fixedLengths, _nullable) = (columns, fixedLengths, nullable);
        _framing = new BinaryCopyFraming(columns, reportsFields: true);
    }

    /// <summary>Rows decoded whole.</summary>
    public long Rows { get; private set; }

    /// <summary>The 1-based number of the tuple being decoded, for an error that names it.</summary>
    protected long Tuple => _framing.Tuple;

    /// <summary>Adds to <paramref name="rows"/> every row that ends in <paramref name="piece"/>; true once the trailer is read.</summary>
    public bool Decode(ReadOnlySpan<byte> piece, List<TRow> rows)
    {
        var at = 0;
        if (_cutField is not null)
        {
            ContinueCutField(piece, ref at, rows);
        }

        while (true)
        {
            switch (_framing.Next(piece, ref at, out var bytes))
            {
                case BinaryCopyFraming.Token.More:
                    return false;
                case BinaryCopyFraming.Token.Trailer:
                    return true;
                case BinaryCopyFraming.Token.Fault:
                    throw new SourceStreamException(_framing.Fault!);
                case BinaryCopyFraming.Token.Field:
                    if (bytes.Length == _framing.FieldLength)
                    {
                        Store(bytes, rows);
                    }
                    else
                    {
                        StartCutField(bytes, rows); // or a NULL
                    }

                    break;
            }
        }
    }

    /// <summary>Decodes the value of column <paramref name="field"/>, whole and checked against its width.</summary>
    protected abstract void DecodeField(int field, ReadOnlySpan<byte> bytes);

    /// <summary>Column <paramref name="field"/> is NULL (only called for a nullable column).</summary>
    protected abstract void DecodeNull(int field);

    /// <summary>The row whose last field was just decoded.</summary>
    protected abstract TRow CompleteRow();

    private void CheckLength()
    {
        var length = _framing.FieldLength;
        var column = _columns[_framing.Field];
        if (length == -1 && !_nullable[_framing.Field])
        {
            throw new SourceStreamException($"COPY tuple {_framing.Tuple:N0}: {column} is NULL, but the column is NOT NULL.");
        }

        var expected = _fixedLengths[_framing.Field];
        if (length != -1 && expected >= 0 && length != expected)
        {
            throw new SourceStreamException($"COPY tuple {_framing.Tuple:N0}: {column} has length {length}; expected {expected}.");
        }
    }

    /// <summary>A field that goes on in the next piece: checked now (a NULL ends here), decoded once whole.</summary>
    private void StartCutField(ReadOnlySpan<byte> bytes, List<TRow> rows)
    {
        CheckLength();
        if (_framing.FieldLength == -1)
        {
            DecodeNull(_framing.Field);
            Stored(rows);
            return;
        }

        _cutField = ArrayPool<byte>.Shared.Rent(_framing.FieldLength);
        bytes.CopyTo(_cutField);
        _cutFieldRead = bytes.Length;
    }

    private void ContinueCutField(ReadOnlySpan<byte> piece, ref int at, List<TRow> rows)
    {
        var bytes = _framing.TakeFieldBytes(piece, ref at);
        bytes.CopyTo(_cutField.AsSpan(_cutFieldRead));
        _cutFieldRead += bytes.Length;
        if (_cutFieldRead == _framing.FieldLength)
        {
            Store(_cutField.AsSpan(0, _cutFieldRead), rows);
            ReturnCutField();
        }
    }

    /// <summary>Decodes a whole field (the framing has refused negative lengths but -1; the fixed widths are checked here).</summary>
    private void Store(ReadOnlySpan<byte> bytes, List<TRow> rows)
    {
        var field = _framing.Field;
        if (_fixedLengths[field] >= 0 && bytes.Length != _fixedLengths[field])
        {
            CheckLength();
        }

        DecodeField(field, bytes);
        Stored(rows);
    }

    private void Stored(List<TRow> rows)
    {
        if (_framing.Field == _columns.Length - 1)
        {
            rows.Add(CompleteRow());
            Rows++;
        }
    }

    private void ReturnCutField()
    {
        if (_cutField is not null)
        {
            ArrayPool<byte>.Shared.Return(_cutField);
            _cutField = null;
        }
    }

    public void Dispose() => ReturnCutField();
}
