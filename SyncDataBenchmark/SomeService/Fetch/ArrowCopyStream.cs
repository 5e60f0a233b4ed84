using System.Buffers.Binary;
using Apache.Arrow;
using Apache.Arrow.Arrays;
using SyncData.Arrow;

namespace SomeService.Fetch;

/// <summary>
/// ArrowStream's record batches as PostgreSQL binary COPY, encoded column by column straight from the batches' buffers:
/// the COPY writers that take bytes (NpgsqlCopyRaw, NpgsqlCopyRawTuned) are fed without a row object or a string ever
/// existing. This class is the framing (header, each tuple's field count, each field's length word, -1 for an Arrow
/// null, the trailer); each value is the bytes PostgreSQL's binary format wants, as the table's
/// <see cref="ArrowCopyColumns"/> encode them (every value Arrow carried, exactly). Errors of the Arrow
/// stream (cut, failed at the source) surface from <see cref="ReadAsync(Memory{byte}, CancellationToken)"/> as the
/// reader names them, and the relay cancels its COPY.
/// </summary>
internal sealed class ArrowCopyStream(Stream body, IAsyncEnumerable<RecordBatch> batches, ArrowCopyColumns encoding, CancellationToken ct) : ReadOnlyBodyStream(body)
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
        var length = (long)batch.Length * (2 + 4 * columns.Length) + columns.Select((c, index) => encoding.MaxValueBytes(index, c)).Sum();
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
            for (var index = 0; index < columns.Length; index++)
            {
                at += WriteField(index, columns[index], row, span[at..]);
            }
        }

        (_length, _served) = (at, 0);
    }

    /// <summary>One field: its length word (-1 for NULL) and its value, as the table's columns encode it.</summary>
    private int WriteField(int index, IArrowArray column, int row, Span<byte> to)
    {
        if (column.IsNull(row))
        {
            BinaryPrimitives.WriteInt32BigEndian(to, -1);
            return 4;
        }

        var length = encoding.WriteValue(index, column, row, to[4..]);
        BinaryPrimitives.WriteInt32BigEndian(to, length);
        return 4 + length;
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
