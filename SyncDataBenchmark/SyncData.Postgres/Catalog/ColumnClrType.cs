namespace SyncData.Postgres.Catalog;

/// <summary>The CLR type a column's values are held in by a row class generated for it, as EF Core's Npgsql provider maps the column's type.</summary>
/// <param name="Kind">How its binary COPY value is read.</param>
/// <param name="ClrType">The property's type as C# spells it, without nullability; "" for an enum (its type is generated from the labels).</param>
/// <param name="NpgsqlDbType">The NpgsqlDbType the binary importer writes it with ("Array | Text" for text[]); "" for an enum (written by its type name).</param>
/// <param name="FixedLength">Its binary COPY width in bytes; -1 for any.</param>
/// <param name="ValueType">Whether the CLR type is a value type (nullable as T?, which a reference type marks as ?).</param>
/// <param name="Element">An array's element or a range's subtype (<see cref="ColumnValueKind.Array"/>, <see cref="ColumnValueKind.Range"/>, <see cref="ColumnValueKind.Multirange"/>); null for any other.</param>
public sealed record ColumnClrType(ColumnValueKind Kind, string ClrType, string NpgsqlDbType, int FixedLength, bool ValueType, ColumnClrType? Element = null);
