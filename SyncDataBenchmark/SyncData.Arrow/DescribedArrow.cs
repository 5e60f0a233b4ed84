using Apache.Arrow;
using Apache.Arrow.Types;
using SyncData.Postgres.Catalog;

namespace SyncData.Arrow;

/// <summary>
/// The Arrow schema of a described table (a team's own, read from its catalog), derived column by column from the CLR
/// type its generated row class holds (<see cref="ColumnClrTypes"/>), as UsersArrow and OrdersArrow are written by hand
/// and with their choices: a uuid as arrow.uuid, numeric, json, jsonb and an enum's label as PostgreSQL's own text,
/// timestamps as timestamp[us] (UTC for timestamptz) and dates as date32 shifted to Arrow's epoch with ±infinity as the
/// integer's max and min, time as time64[us], bytea as binary, text[] as list&lt;utf8&gt; with NULL elements. Every COPY
/// column (a generated column is the database's to compute) in its COPY order, nullable as the column is.
/// </summary>
public static class DescribedArrow
{
    private static readonly KeyValuePair<string, string> PostgresText = new("SyncData:postgres", "as PostgreSQL prints it");

    /// <summary>The schema of <paramref name="table"/>; every COPY column's type must be one the generator maps (DescribedTableReach refuses the rest first).</summary>
    public static Schema Of(TableDescription table)
    {
        var schema = new Schema.Builder();
        foreach (var column in table.CopyColumns)
        {
            var clr = ColumnClrTypes.Of(column, out var why)
                ?? throw new InvalidOperationException($"{table.QualifiedName}'s column {TableDescription.Quote(column.Name)} is {column.Type}: {why}.");
            var (type, metadata) = TypeOf(clr.Kind);
            schema.Field(new Field(column.Name, type, nullable: !column.NotNull, metadata is { } m ? [m] : null));
        }

        return schema.Build();
    }

    /// <summary>The Arrow type a kind of value travels as, and what the field's metadata says of it to another reader.</summary>
    public static (IArrowType Type, KeyValuePair<string, string>? Metadata) TypeOf(ColumnValueKind kind) => kind switch
    {
        ColumnValueKind.Boolean => (BooleanType.Default, null),
        ColumnValueKind.Int16 => (Int16Type.Default, null),
        ColumnValueKind.Int32 => (Int32Type.Default, null),
        ColumnValueKind.Int64 => (Int64Type.Default, null),
        ColumnValueKind.Float4 => (FloatType.Default, null),
        ColumnValueKind.Float8 => (DoubleType.Default, null),
        ColumnValueKind.Numeric or ColumnValueKind.Json or ColumnValueKind.Jsonb or ColumnValueKind.Enum => (StringType.Default, PostgresText),
        ColumnValueKind.Text => (StringType.Default, null),
        ColumnValueKind.Uuid => (GuidType.Default, null),
        ColumnValueKind.Timestamp => (new TimestampType(TimeUnit.Microsecond, (string?)null), ArrowFormat.TimestampInfinity),
        ColumnValueKind.TimestampTz => (new TimestampType(TimeUnit.Microsecond, "UTC"), ArrowFormat.TimestampInfinity),
        ColumnValueKind.Date => (Date32Type.Default, ArrowFormat.DateInfinity),
        ColumnValueKind.Time => (new Time64Type(TimeUnit.Microsecond), null),
        ColumnValueKind.Bytea => (BinaryType.Default, null),
        ColumnValueKind.TextArray => (new ListType(new Field("item", StringType.Default, nullable: true)), null),
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "No Arrow type for this kind of value."),
    };
}
