namespace SyncData.Postgres.Catalog;

/// <summary>One column of a table as its database's catalog describes it (<see cref="TableCatalog"/>).</summary>
/// <param name="Name">The name as stored: case and spaces kept; <see cref="TableDescription.Quote"/> makes it SQL.</param>
/// <param name="Type">The type as format_type prints it, length, precision and array bounds included.</param>
/// <param name="SendFunction">The type's binary send function ("-" when it has none): the checksum reads every value through it, so no setting of either server (DateStyle, IntervalStyle, extra_float_digits, bytea_output, TimeZone) can change what it sees.</param>
/// <param name="Generated">The expression of a stored generated column, which COPY cannot write; null for any other.</param>
/// <param name="Identity">"a" (generated always), "d" (by default), "" (not an identity column).</param>
/// <param name="Collation">The column's collation when it is not its type's own, already quoted; null otherwise.</param>
/// <param name="Base">The type the column's values are, a domain followed down to it: what a typed writer's row class is generated from (<see cref="ColumnClrTypes"/>); null when not read.</param>
public sealed record TableColumn(string Name, string Type, string SendFunction, bool NotNull, string? Generated, string Identity, string? Collation,
    ColumnBaseType? Base = null);
