using System.Buffers.Binary;
using Apache.Arrow;
using Apache.Arrow.Arrays;
using SyncData.Arrow;

namespace SomeService.Fetch;

/// <summary>
/// How a table's Arrow columns become binary COPY values, by their Arrow type, as PostgreSQL's receive functions read
/// them: a uuid's 16 bytes (arrow.uuid's own order), a text's or bytea's bytes as Arrow holds them, int64/int32 big-endian,
/// a timestamp's microseconds and a date's days since 2000-01-01 (±infinity as the integer's max/min, as PostgreSQL
/// keeps them), a boolean's byte, a list&lt;utf8&gt; as a one-dimensional text[] from 1 (NULL elements as -1; empty: no
/// dimension). users' columns are all of these; a table whose text columns hold another type's text overrides
/// <see cref="WriteValue"/> for them (<see cref="OrdersArrowCopyColumns"/>). NULLs and length words are the stream's.
/// </summary>
public class ArrowCopyColumns
{
    private const int TextOid = 25;

    public static ArrowCopyColumns Users { get; } = new();

    /// <summary>The most bytes column <paramref name="index"/>'s values take in COPY, length words excluded.</summary>
    public virtual long MaxValueBytes(int index, IArrowArray column) => column switch
    {
        GuidArray guids => guids.StorageArray.ValueBuffer.Length,
        FixedSizeBinaryArray fixedSize => fixedSize.ValueBuffer.Length,
        BinaryArray bytes => TextBytes(bytes),
        TimestampArray or Int64Array => column.Length * 8L,
        Date32Array or Int32Array => column.Length * 4L,
        BooleanArray => column.Length,
        ListArray { Values: StringArray elements } => column.Length * 20L + elements.Length * 4L + TextBytes(elements),
        _ => throw new SourceStreamException($"ArrowStream has a {column.Data.DataType.Name} column, which the COPY encoding does not know."),
    };

    /// <summary>Writes row <paramref name="row"/>'s value (not NULL) of column <paramref name="index"/>; returns its length.</summary>
    public virtual int WriteValue(int index, IArrowArray column, int row, Span<byte> to)
    {
        switch (column)
        {
            case GuidArray guids:
                return Copy(guids.StorageArray.GetBytes(row), to);
            case FixedSizeBinaryArray fixedSize:
                return Copy(fixedSize.GetBytes(row), to);
            case BinaryArray bytes:
                return Copy(bytes.GetBytes(row), to);
            case TimestampArray timestamps:
                BinaryPrimitives.WriteInt64BigEndian(to, ArrowFormat.ToPostgresMicros(timestamps.Values[row]));
                return 8;
            case Int64Array longs:
                BinaryPrimitives.WriteInt64BigEndian(to, longs.Values[row]);
                return 8;
            case Date32Array dates:
                BinaryPrimitives.WriteInt32BigEndian(to, ArrowFormat.ToPostgresDays(dates.Values[row]));
                return 4;
            case Int32Array ints:
                BinaryPrimitives.WriteInt32BigEndian(to, ints.Values[row]);
                return 4;
            case BooleanArray booleans:
                to[0] = booleans.GetValue(row) == true ? (byte)1 : (byte)0;
                return 1;
            default:
                return WriteTextArray((ListArray)column, row, to);
        }
    }

    /// <summary>array_send's layout: dimensions, has-NULL flag, element oid, (size, lower bound) per dimension, then each element's length and bytes.</summary>
    private static int WriteTextArray(ListArray list, int row, Span<byte> to)
    {
        var elements = (StringArray)list.Values;
        var (start, end) = (list.ValueOffsets[row], list.ValueOffsets[row + 1]);
        var hasNull = false;
        for (var e = start; e < end && !hasNull; e++)
        {
            hasNull = elements.IsNull(e);
        }

        BinaryPrimitives.WriteInt32BigEndian(to, end > start ? 1 : 0);
        BinaryPrimitives.WriteInt32BigEndian(to[4..], hasNull ? 1 : 0);
        BinaryPrimitives.WriteInt32BigEndian(to[8..], TextOid);
        if (end == start)
        {
            return 12;
        }

        BinaryPrimitives.WriteInt32BigEndian(to[12..], end - start);
        BinaryPrimitives.WriteInt32BigEndian(to[16..], 1);
        var at = 20;
        for (var e = start; e < end; e++)
        {
            if (elements.IsNull(e))
            {
                BinaryPrimitives.WriteInt32BigEndian(to[at..], -1);
                at += 4;
            }
            else
            {
                var written = Copy(elements.GetBytes(e), to[(at + 4)..]);
                BinaryPrimitives.WriteInt32BigEndian(to[at..], written);
                at += 4 + written;
            }
        }

        return at;
    }

    protected static long TextBytes(BinaryArray bytes) => bytes.ValueOffsets[^1] - bytes.ValueOffsets[0];

    protected static int Copy(ReadOnlySpan<byte> value, Span<byte> to)
    {
        value.CopyTo(to);
        return value.Length;
    }
}
