using System.Buffers.Binary;
using Apache.Arrow;
using Apache.Arrow.Arrays;
using SyncData.Arrow;

namespace SomeService.Fetch;

/// <summary>
/// ArrowStream's record batches as PostgreSQL binary COPY, encoded column by column straight from the batches' buffers:
/// the COPY writers that take bytes (NpgsqlCopyRaw, NpgsqlCopyRawTuned) are fed without a row object or a string ever
/// existing. Each field is the bytes PostgreSQL's binary format wants: a uuid's 16 bytes (arrow.uuid's own order), a
/// text's UTF-8 bytes as Arrow holds them, a timestamp's microseconds since 2000-01-01 (every value Arrow carried,
/// 0001-01-01 00:00:00, the years before Christ and ±infinity included, exactly), a boolean's byte. Errors of the Arrow
/// stream (cut, failed at the source) surface from <see cref="ReadAsync(Memory{byte}, CancellationToken)"/> as the
/// reader names them, and the relay cancels its COPY.
/// </summary>
internal sealed class ArrowCopyStream(Stream body, IAsyncEnumerable<RecordBatch> batches, CancellationToken ct) : ReadOnlyBodyStream(body)
{
    private static readonly byte[] Header = [(byte)'P', (byte)'G', (byte)'C', (byte)'O', (byte)'P', (byte)'Y', (byte)'\n', 0xFF, (byte)'\r', (byte)'\n', 0, 0, 0, 0, 0, 0, 0, 0, 0];
    private static readonly byte[] Trailer = [0xFF, 0xFF];

    private readonly IAsyncEnumerator<RecordBatch> _batches = batches.GetAsyncEnumerator(ct);
    private byte[] _encoded = Header;
    private int _length = Header.Length;
    private int _served;
    private bool _ended;
    private bool _disposed;

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        while (_served == _length)
        {
            if (_ended)
            {
                return 0;
            }

            if (await _batches.MoveNextAsync())
            {
                using var batch = _batches.Current;
                Encode(batch);
            }
            else
            {
                (_encoded, _length, _served, _ended) = (Trailer, Trailer.Length, 0, true);
            }
        }

        var n = Math.Min(buffer.Length, _length - _served);
        _encoded.AsMemory(_served, n).CopyTo(buffer);
        _served += n;
        return n;
    }

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer.AsMemory(offset, count)).AsTask().GetAwaiter().GetResult();

    /// <summary>The batch's rows as COPY tuples into one buffer (reused, grown as batches need).</summary>
    private void Encode(RecordBatch batch)
    {
        var columns = Enumerable.Range(0, batch.ColumnCount).Select(c => batch.Column(c)).ToArray();
        var length = (long)batch.Length * (2 + 4 * columns.Length) + columns.Sum(c => (long)ValueBytes(c));
        if (_encoded == Header || _encoded.Length < length)
        {
            _encoded = new byte[checked((int)length)];
        }

        var at = 0;
        var span = _encoded.AsSpan();
        for (var row = 0; row < batch.Length; row++)
        {
            BinaryPrimitives.WriteInt16BigEndian(span[at..], (short)columns.Length);
            at += 2;
            foreach (var column in columns)
            {
                at += WriteField(column, row, span[at..]);
            }
        }

        (_length, _served) = (at, 0);
    }

    /// <summary>Bytes of a column's values in COPY, length words excluded.</summary>
    private static int ValueBytes(IArrowArray column) => column switch
    {
        GuidArray guids => guids.StorageArray.ValueBuffer.Length,
        FixedSizeBinaryArray fixedSize => fixedSize.ValueBuffer.Length,
        StringArray texts => texts.ValueOffsets[^1] - texts.ValueOffsets[0],
        TimestampArray timestamps => timestamps.Length * 8,
        BooleanArray booleans => booleans.Length,
        _ => throw new SourceStreamException($"ArrowStream has a {column.Data.DataType.Name} column, which the COPY encoding does not know."),
    };

    /// <summary>One field: its length word and its value, in PostgreSQL's binary format.</summary>
    private static int WriteField(IArrowArray column, int row, Span<byte> to)
    {
        switch (column)
        {
            case GuidArray guids:
                return WriteBytes(guids.StorageArray.GetBytes(row), to);
            case FixedSizeBinaryArray fixedSize:
                return WriteBytes(fixedSize.GetBytes(row), to);
            case StringArray texts:
                return WriteBytes(texts.GetBytes(row), to);
            case TimestampArray timestamps:
                BinaryPrimitives.WriteInt32BigEndian(to, 8);
                BinaryPrimitives.WriteInt64BigEndian(to[4..], ArrowFormat.ToPostgresMicros(timestamps.Values[row]));
                return 12;
            default:
                BinaryPrimitives.WriteInt32BigEndian(to, 1);
                to[4] = ((BooleanArray)column).GetValue(row) == true ? (byte)1 : (byte)0;
                return 5;
        }
    }

    private static int WriteBytes(ReadOnlySpan<byte> value, Span<byte> to)
    {
        BinaryPrimitives.WriteInt32BigEndian(to, value.Length);
        value.CopyTo(to[4..]);
        return 4 + value.Length;
    }

    /// <summary>The batches' reader (its enumerator holds the Arrow reader), then the body (the base's), once; DisposeAsync ends here too.</summary>
    protected override void Dispose(bool disposing)
    {
        if (disposing && !_disposed)
        {
            _disposed = true;
            _batches.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }

        base.Dispose(disposing);
    }
}
