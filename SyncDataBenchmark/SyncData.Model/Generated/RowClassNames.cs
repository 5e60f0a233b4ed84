using System.Text;
using SyncData.Postgres.Catalog;

namespace SyncData.Model.Generated;

/// <summary>
/// The C# names of a described table's generated types and members: each PostgreSQL name PascalCased to an ASCII
/// identifier (a mixed-case, quoted or reserved name becomes an ordinary one; the mapping keeps the real name), made
/// unique within its scope.
/// </summary>
public static class RowClassNames
{
    /// <summary><paramref name="name"/> as a PascalCase identifier: its letters and digits, each run after another character capitalised; <paramref name="fallback"/> when none.</summary>
    public static string Pascal(string name, string fallback)
    {
        var identifier = new StringBuilder();
        var capital = true;
        foreach (var ch in name)
        {
            if (char.IsAsciiLetterOrDigit(ch))
            {
                identifier.Append(capital ? char.ToUpperInvariant(ch) : ch);
                capital = false;
            }
            else
            {
                capital = true;
            }
        }

        if (identifier.Length == 0)
        {
            return fallback;
        }

        return char.IsAsciiDigit(identifier[0]) ? "_" + identifier : identifier.ToString();
    }

    /// <summary><paramref name="wanted"/>, or it with a number added until <paramref name="taken"/> does not hold it; then taken.</summary>
    public static string Unique(string wanted, HashSet<string> taken)
    {
        var name = wanted;
        for (var n = 2; !taken.Add(name); n++)
        {
            name = wanted + n;
        }

        return name;
    }

    /// <summary>Every COPY column with its property's name and type; enum columns typed by their generated enum (<paramref name="enums"/>: the enum type's schema.name → its C# name).</summary>
    public static List<GeneratedColumn> Columns(TableDescription table, string entity, IReadOnlyDictionary<string, string> enums, string ns)
    {
        var taken = new HashSet<string>(StringComparer.Ordinal) { entity };
        var columns = new List<GeneratedColumn>();
        foreach (var column in table.CopyColumns)
        {
            var clr = ColumnClrTypes.Of(column, out var why) ?? throw new InvalidOperationException($"{table.QualifiedName}.{column.Name}: {why}");
            var property = Unique(Pascal(column.Name, "Column" + (columns.Count + 1)), taken);
            var enumName = clr.Kind == ColumnValueKind.Enum ? enums[column.Base!.DataTypeName] : null;
            var type = enumName is null ? clr.ClrType : $"global::{ns}.{enumName}";
            var nullable = !column.NotNull ? "?" : "";
            columns.Add(new GeneratedColumn(column, clr, columns.Count, property, type + nullable, enumName));
        }

        return columns;
    }

    /// <summary>The enums the columns use, each with a C# name unique beside the entity's and the other enums'.</summary>
    public static Dictionary<string, (string Name, ColumnBaseType Type)> Enums(TableDescription table, HashSet<string> taken)
    {
        var enums = new Dictionary<string, (string, ColumnBaseType)>(StringComparer.Ordinal);
        foreach (var type in table.CopyColumns.Select(c => c.Base).OfType<ColumnBaseType>().Where(t => t.Kind == "e"))
        {
            if (!enums.ContainsKey(type.DataTypeName))
            {
                enums[type.DataTypeName] = (Unique(Pascal(type.TypeName, "Enum"), taken), type);
            }
        }

        return enums;
    }
}
