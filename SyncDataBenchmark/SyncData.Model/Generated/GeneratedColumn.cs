using SyncData.Postgres.Catalog;

namespace SyncData.Model.Generated;

/// <summary>One COPY column of a described table as its generated row class holds it.</summary>
/// <param name="Field">Its place in the COPY.</param>
/// <param name="Property">The property's name: the column's, PascalCased to a C# identifier, kept apart from the others.</param>
/// <param name="TypeName">The property's type as C# spells it, nullable where the column is (a generated enum by its full name).</param>
/// <param name="EnumName">The generated enum of an enum column (its simple name); null for any other.</param>
public sealed record GeneratedColumn(TableColumn Column, ColumnClrType Clr, int Field, string Property, string TypeName, string? EnumName)
{
    public bool Nullable => !Column.NotNull;

    /// <summary>Whether the database owns the value (an identity) or the row is found by it (the key): either way EF must send the source's value, never generate one.</summary>
    public bool SentAsIs(TableDescription table) => Column.Identity != "" || table.PrimaryKey.Contains(Column.Name);
}
