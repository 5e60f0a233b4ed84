using System.Buffers.Binary;
using Apache.Arrow;
using SomeService.Fetch;
using SyncData.Postgres.Catalog;

namespace SomeService.Tables.Generated;

/// <summary>
/// A described table's ArrowStream batches as binary COPY, for the raw writers (ArrowStream × NpgsqlCopyRaw,
/// NpgsqlCopyRawTuned), derived from its description as <see cref="OrdersArrowCopyColumns"/> is written for orders: each
/// field as its column's kind (<see cref="ColumnClrTypes"/>, the kind <see cref="SyncData.Arrow.DescribedArrow"/> chose
/// its Arrow type by) becomes the bytes that type's receive function reads: smallint, real, double and time big-endian,
/// numeric's text as numeric_send's digits (exact, NaN and ±Infinity included), jsonb's text behind its version byte;
/// json, an enum's label, char(n) and xml as their text; the rest as <see cref="ArrowCopyColumns"/> writes them.
/// </summary>
internal sealed class DescribedArrowCopyColumns(TableDescription table) : ArrowCopyColumns
{
    private const byte JsonbVersion = 1;

    private readonly ColumnValueKind[] _kinds = [.. table.CopyColumns.Select(c => ColumnClrTypes.Of(c, out _)?.Kind
        ?? throw new InvalidOperationException($"{table.QualifiedName}'s column {TableDescription.Quote(c.Name)} is {c.Type}, which no Arrow field carries."))];

    public override long MaxValueBytes(int index, IArrowArray column) => _kinds[index] switch
    {
        ColumnValueKind.Numeric => column.Length * (long)PostgresNumeric.MaxBinaryLength(0) + TextBytes((StringArray)column),
        ColumnValueKind.Jsonb => column.Length + TextBytes((StringArray)column),
        ColumnValueKind.Int16 => column.Length * 2L,
        ColumnValueKind.Float4 => column.Length * 4L,
        ColumnValueKind.Float8 or ColumnValueKind.Time => column.Length * 8L,
        _ => base.MaxValueBytes(index, column),
    };

    public override int WriteValue(int index, IArrowArray column, int row, Span<byte> to)
    {
        switch (_kinds[index])
        {
            case ColumnValueKind.Numeric:
                return PostgresNumeric.WriteFromText(((StringArray)column).GetBytes(row), to);
            case ColumnValueKind.Jsonb:
                to[0] = JsonbVersion;
                return 1 + Copy(((StringArray)column).GetBytes(row), to[1..]);
            case ColumnValueKind.Int16:
                BinaryPrimitives.WriteInt16BigEndian(to, ((Int16Array)column).Values[row]);
                return 2;
            case ColumnValueKind.Float4:
                BinaryPrimitives.WriteSingleBigEndian(to, ((FloatArray)column).Values[row]);
                return 4;
            case ColumnValueKind.Float8:
                BinaryPrimitives.WriteDoubleBigEndian(to, ((DoubleArray)column).Values[row]);
                return 8;
            case ColumnValueKind.Time:
                BinaryPrimitives.WriteInt64BigEndian(to, ((Time64Array)column).Values[row]);
                return 8;
            default:
                return base.WriteValue(index, column, row, to);
        }
    }
}
