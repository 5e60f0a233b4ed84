using Apache.Arrow;
using Apache.Arrow.Types;
using Npgsql;
using SyncData.Arrow;
using SyncData.Postgres.Catalog;

namespace SyncDataSource.Tables;

/// <summary>
/// One column of a described table's Arrow record batches as the source builds them (<see cref="DescribedArrowRows"/>):
/// the reader's value at its ordinal appended in the column's Arrow type (<see cref="DescribedArrow.TypeOf"/>), as
/// UsersArrow and OrdersArrow append theirs: timestamps and dates as PostgreSQL's own integers shifted to Arrow's
/// epoch (±infinity kept as max/min), text-read kinds as their text.
/// </summary>
public abstract class DescribedArrowColumn(int ordinal, bool nullable)
{
    /// <summary>The column at <paramref name="ordinal"/> of kind <paramref name="kind"/>.</summary>
    public static DescribedArrowColumn For(ColumnValueKind kind, IArrowType type, int ordinal, bool nullable) => kind switch
    {
        ColumnValueKind.Boolean => new Booleans(ordinal, nullable),
        ColumnValueKind.Int16 => new Fixed<short>(type, ordinal, nullable, (r, o) => r.GetInt16(o)),
        ColumnValueKind.Int32 => new Fixed<int>(type, ordinal, nullable, (r, o) => r.GetInt32(o)),
        ColumnValueKind.Int64 => new Fixed<long>(type, ordinal, nullable, (r, o) => r.GetInt64(o)),
        ColumnValueKind.Float4 => new Fixed<float>(type, ordinal, nullable, (r, o) => r.GetFloat(o)),
        ColumnValueKind.Float8 => new Fixed<double>(type, ordinal, nullable, (r, o) => r.GetDouble(o)),
        ColumnValueKind.Timestamp or ColumnValueKind.TimestampTz =>
            new Fixed<long>(type, ordinal, nullable, (r, o) => ArrowFormat.ToArrowMicros(r.GetFieldValue<long>(o))),
        ColumnValueKind.Date => new Fixed<int>(type, ordinal, nullable, (r, o) => ArrowFormat.ToArrowDays(r.GetFieldValue<int>(o))),
        ColumnValueKind.Time => new Fixed<long>(type, ordinal, nullable, (r, o) => r.GetFieldValue<TimeSpan>(o).Ticks / TimeSpan.TicksPerMicrosecond),
        ColumnValueKind.Uuid => new Uuids(ordinal, nullable),
        ColumnValueKind.Bytea => new Binaries(ordinal, nullable),
        ColumnValueKind.TextArray => new TextArrays(ordinal, nullable),
        _ => new Texts(ordinal, nullable),
    };

    protected bool Nullable => nullable;

    /// <summary>
    /// Appends the reader's current value, or a NULL; a NOT NULL column is not asked whether it is NULL, as the written
    /// tables' columns are not.
    /// </summary>
    public void Append(NpgsqlDataReader row)
    {
        if (nullable && row.IsDBNull(ordinal))
        {
            AppendNull();
        }
        else
        {
            AppendValue(row, ordinal);
        }
    }

    protected abstract void AppendNull();

    protected abstract void AppendValue(NpgsqlDataReader row, int ordinal);

    /// <summary>The <paramref name="count"/> values appended so far as one array; the column starts over.</summary>
    public abstract IArrowArray Build(int count);

    /// <summary>A fixed-width value in a buffer of its own, the validity bitmap only for a nullable column (as users' created_at, orders' delivery_date).</summary>
    private sealed class Fixed<T>(IArrowType type, int ordinal, bool nullable, Func<NpgsqlDataReader, int, T> read) : DescribedArrowColumn(ordinal, nullable)
        where T : struct
    {
        private readonly ArrowBuffer.Builder<T> _values = new();
        private readonly ArrowBuffer.BitmapBuilder _valid = new();

        protected override void AppendNull()
        {
            _values.Append(default(T));
            _valid.Append(false);
        }

        protected override void AppendValue(NpgsqlDataReader row, int ordinal)
        {
            _values.Append(read(row, ordinal));
            if (Nullable)
            {
                _valid.Append(true);
            }
        }

        public override IArrowArray Build(int count)
        {
            var nulls = Nullable ? _valid.UnsetBitCount : 0;
            var array = ArrowArrayFactory.BuildArray(new ArrayData(type, count, nulls, 0, [Nullable ? _valid.Build() : ArrowBuffer.Empty, _values.Build()]));
            _values.Clear();
            _valid.Clear();
            return array;
        }
    }

    private sealed class Booleans(int ordinal, bool nullable) : DescribedArrowColumn(ordinal, nullable)
    {
        private readonly BooleanArray.Builder _values = new();

        protected override void AppendNull() => _values.AppendNull();

        protected override void AppendValue(NpgsqlDataReader row, int ordinal) => _values.Append(row.GetBoolean(ordinal));

        public override IArrowArray Build(int count) => BuildAndClear(_values.Build(), () => _values.Clear());
    }

    private sealed class Texts(int ordinal, bool nullable) : DescribedArrowColumn(ordinal, nullable)
    {
        private readonly StringArray.Builder _values = new();

        protected override void AppendNull() => _values.AppendNull();

        protected override void AppendValue(NpgsqlDataReader row, int ordinal) => _values.Append(row.GetString(ordinal));

        public override IArrowArray Build(int count) => BuildAndClear(_values.Build(), () => _values.Clear());
    }

    private sealed class Uuids(int ordinal, bool nullable) : DescribedArrowColumn(ordinal, nullable)
    {
        private readonly GuidArray.Builder _values = new();

        protected override void AppendNull() => _values.AppendNull();

        protected override void AppendValue(NpgsqlDataReader row, int ordinal) => _values.Append(row.GetGuid(ordinal));

        public override IArrowArray Build(int count) => BuildAndClear(_values.Build(), () => _values.Clear());
    }

    private sealed class Binaries(int ordinal, bool nullable) : DescribedArrowColumn(ordinal, nullable)
    {
        private readonly BinaryArray.Builder _values = new();

        protected override void AppendNull() => _values.AppendNull();

        protected override void AppendValue(NpgsqlDataReader row, int ordinal) => _values.Append(row.GetFieldValue<byte[]>(ordinal).AsSpan());

        public override IArrowArray Build(int count) => BuildAndClear(_values.Build(), () => _values.Clear());
    }

    private sealed class TextArrays(int ordinal, bool nullable) : DescribedArrowColumn(ordinal, nullable)
    {
        private readonly ListArray.Builder _values = new(new Field("item", StringType.Default, nullable: true));

        protected override void AppendNull() => _values.AppendNull();

        protected override void AppendValue(NpgsqlDataReader row, int ordinal)
        {
            _values.Append();
            var elements = (StringArray.Builder)_values.ValueBuilder;
            foreach (var element in row.GetFieldValue<string?[]>(ordinal))
            {
                elements.Append(element);
            }
        }

        public override IArrowArray Build(int count) => BuildAndClear(_values.Build(), () => _values.Clear());
    }

    private static IArrowArray BuildAndClear(IArrowArray array, Action clear)
    {
        clear();
        return array;
    }
}
