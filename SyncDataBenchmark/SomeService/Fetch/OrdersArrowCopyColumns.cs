using Apache.Arrow;
using SyncData.Arrow;

namespace SomeService.Fetch;

/// <summary>
/// orders' Arrow columns as binary COPY: the natural types as <see cref="ArrowCopyColumns"/> writes them (the enum's and
/// char(3)'s labels as text, which their receive functions take), and the utf8 columns holding another type's text as
/// that type's binary: numeric's text as numeric_send's digits (<see cref="PostgresNumeric.WriteFromText"/>: exact at
/// any length, NaN and ±Infinity included), jsonb's text behind jsonb's version byte 1.
/// </summary>
internal sealed class OrdersArrowCopyColumns : ArrowCopyColumns
{
    private const byte JsonbVersion = 1;

    private static readonly int[] Numerics = [Index("total"), Index("discount"), Index("exchange_rate")];
    private static readonly int Jsonb = Index("attributes");

    public static ArrowCopyColumns Orders { get; } = new OrdersArrowCopyColumns();

    private static int Index(string name) => OrdersArrow.Schema.GetFieldIndex(name);

    public override long MaxValueBytes(int index, IArrowArray column) =>
        Numerics.Contains(index) ? column.Length * (long)PostgresNumeric.MaxBinaryLength(0) + TextBytes((StringArray)column)
        : index == Jsonb ? column.Length + TextBytes((StringArray)column)
        : base.MaxValueBytes(index, column);

    public override int WriteValue(int index, IArrowArray column, int row, Span<byte> to)
    {
        if (Numerics.Contains(index))
        {
            return PostgresNumeric.WriteFromText(((StringArray)column).GetBytes(row), to);
        }

        if (index == Jsonb)
        {
            to[0] = JsonbVersion;
            return 1 + Copy(((StringArray)column).GetBytes(row), to[1..]);
        }

        return base.WriteValue(index, column, row, to);
    }
}
