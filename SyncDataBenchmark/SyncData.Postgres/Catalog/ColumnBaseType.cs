namespace SyncData.Postgres.Catalog;

/// <summary>The type a column's values are, a domain followed down to the type it stands for (describe-columns.sql).</summary>
/// <param name="Name">Its name in pg_catalog (int4, numeric, _text, …); "" for a type outside it (an enum, a user's base type).</param>
/// <param name="Kind">Its typtype: "b" base, "e" enum, "r" range, "m" multirange, "c" composite, "p" pseudo.</param>
/// <param name="Modifier">Its typmod (numeric's precision and scale, char's length); -1 for none.</param>
/// <param name="Element">An array's element type's name in pg_catalog; "" for any other type.</param>
/// <param name="Schema">The schema that holds it (an enum's, for its mapping).</param>
/// <param name="TypeName">Its own name, unquoted.</param>
/// <param name="Labels">An enum's labels in order; empty for any other type.</param>
/// <param name="Formatted">It as format_type prints it, typmod included (numeric(12,2), character(4)): the column type an EF mapping names.</param>
public sealed record ColumnBaseType(string Name, string Kind, int Modifier, string Element, string Schema, string TypeName, IReadOnlyList<string> Labels, string Formatted)
{
    /// <summary>The enum's name as Npgsql's type mapping reads it: schema.name, unquoted.</summary>
    public string DataTypeName => $"{Schema}.{TypeName}";

    /// <summary>Whether SQL must quote its schema or name (anything but lower-case letters, digits and underscores, not starting with a digit): EF Core's store type name of such an enum is quoted.</summary>
    public bool NameNeedsQuotes => !Plain(Schema) || !Plain(TypeName);

    private static bool Plain(string identifier) =>
        identifier.Length > 0 && !char.IsAsciiDigit(identifier[0]) && identifier.All(c => char.IsAsciiLetterLower(c) || char.IsAsciiDigit(c) || c == '_');
}
