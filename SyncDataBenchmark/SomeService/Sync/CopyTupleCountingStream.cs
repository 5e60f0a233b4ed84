using System.Buffers.Binary;

namespace SomeService.Sync;

/// <summary>
/// Passes a PostgreSQL binary COPY stream through untouched and counts its tuples on the way: it reads only the
/// header's extension length, each tuple's field count and each field's length, and skips the field bytes. A
/// malformed stream is not its business (the writer and the verification catch that); it just stops counting.
/// </summary>
internal sealed class CopyTupleCountingStream(Stream inner, RowCounter rows) : Stream
{
    private enum Expect { ExtensionLength, FieldCount, FieldLength, Nothing }

    // Binary COPY header: 11-byte signature and 4-byte flags (skipped), then the 4-byte extension length.
    private long _skip = 15;
    private Expect _expect = Expect.ExtensionLength;
    private int _want = 4;
    private int _have;
    private uint _value;
    private int _fieldsLeft;

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var read = await inner.ReadAsync(buffer, cancellationToken);
        Scan(buffer.Span[..read]);
        return read;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(Span<byte> buffer)
    {
        var read = inner.Read(buffer);
        Scan(buffer[..read]);
        return read;
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    private void Scan(ReadOnlySpan<byte> data)
    {
        var i = 0;
        while (i < data.Length && _expect != Expect.Nothing)
        {
            if (_skip > 0)
            {
                var n = (int)Math.Min(_skip, data.Length - i);
                i += n;
                _skip -= n;
                continue;
            }

            if (_have == 0 && data.Length - i >= _want)
            {
                // The whole integer is in this buffer (the usual case).
                _value = _want == 2 ? BinaryPrimitives.ReadUInt16BigEndian(data[i..]) : BinaryPrimitives.ReadUInt32BigEndian(data[i..]);
                i += _want;
            }
            else
            {
                _value = (_value << 8) | data[i++];
                if (++_have < _want)
                {
                    continue;
                }

                _have = 0;
            }

            Next();
            _value = 0;
        }
    }

    private void Next()
    {
        switch (_expect)
        {
            case Expect.ExtensionLength:
                _skip = _value;
                ExpectFieldCount();
                break;
            case Expect.FieldCount:
                var fields = (short)_value;
                if (fields < 0)
                {
                    _expect = Expect.Nothing; // trailer: -1
                    rows.Flush();
                    return;
                }

                rows.Add(1);
                _fieldsLeft = fields;
                if (_fieldsLeft > 0)
                {
                    _expect = Expect.FieldLength;
                    _want = 4;
                }

                break;
            case Expect.FieldLength:
                var length = (int)_value;
                _skip = length < 0 ? 0 : length; // -1: NULL, no bytes
                if (--_fieldsLeft == 0)
                {
                    ExpectFieldCount();
                }

                break;
        }
    }

    private void ExpectFieldCount()
    {
        _expect = Expect.FieldCount;
        _want = 2;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            rows.Flush();
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    public override async ValueTask DisposeAsync()
    {
        rows.Flush();
        await inner.DisposeAsync();
        await base.DisposeAsync();
    }

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => inner.Position; set => throw new NotSupportedException(); }
    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
