namespace SyncData.Postgres.Catalog;

/// <summary>How a column's binary COPY value is read into its generated row class's property (<see cref="ColumnClrTypes"/>).</summary>
public enum ColumnValueKind
{
    Boolean,
    Int16,
    Int32,
    Int64,
    Float4,
    Float8,
    Numeric,
    Text,
    Uuid,
    Timestamp,
    TimestampTz,
    Date,
    Time,
    Bytea,
    Json,
    Jsonb,
    TextArray,
    Enum,
    Interval,
    MacAddr,
    Point,
    Circle,
    Inet,
    Cidr,
    Money,
    Bits,
    /// <summary>An array of one dimension from 1 of a mapped element type (its <see cref="ColumnClrType.Element"/>); text[] is <see cref="TextArray"/>.</summary>
    Array,
    /// <summary>A range of a mapped subtype (<see cref="ColumnClrType.Element"/>), NpgsqlRange&lt;T&gt;.</summary>
    Range,
    /// <summary>A multirange, NpgsqlRange&lt;T&gt;[].</summary>
    Multirange,
    TsVector,
    TsQuery,
}
