namespace SyncData.Postgres.Catalog;

/// <summary>
/// The one rule of which PostgreSQL types a row class generated from a catalog's description can hold, and in what CLR
/// type: the type EF Core's Npgsql provider maps each to, as a team's own entity class would declare it. SomeService
/// generates its classes by it and <see cref="DescribedTableReach"/> refuses a typed writer by it before any run, so the
/// runner and SomeService agree. A type it maps may still hold a value its CLR type cannot (numeric NaN, a timestamp
/// outside years 1–9999, time 24:00): the run then fails naming the row, column and value.
/// </summary>
public static class ColumnClrTypes
{
    private static readonly Dictionary<string, ColumnClrType> Mapped = new(StringComparer.Ordinal)
    {
        ["bool"] = new(ColumnValueKind.Boolean, "bool", "Boolean", 1, true),
        ["int2"] = new(ColumnValueKind.Int16, "short", "Smallint", 2, true),
        ["int4"] = new(ColumnValueKind.Int32, "int", "Integer", 4, true),
        ["int8"] = new(ColumnValueKind.Int64, "long", "Bigint", 8, true),
        // NaN and ±Infinity are floats and doubles too.
        ["float4"] = new(ColumnValueKind.Float4, "float", "Real", 4, true),
        ["float8"] = new(ColumnValueKind.Float8, "double", "Double", 8, true),
        ["numeric"] = new(ColumnValueKind.Numeric, "decimal", "Numeric", -1, true),
        ["text"] = new(ColumnValueKind.Text, "string", "Text", -1, false),
        ["varchar"] = new(ColumnValueKind.Text, "string", "Varchar", -1, false),
        ["bpchar"] = new(ColumnValueKind.Text, "string", "Char", -1, false),
        ["uuid"] = new(ColumnValueKind.Uuid, "System.Guid", "Uuid", 16, true),
        ["timestamp"] = new(ColumnValueKind.Timestamp, "System.DateTime", "Timestamp", 8, true),
        ["timestamptz"] = new(ColumnValueKind.TimestampTz, "System.DateTime", "TimestampTz", 8, true),
        ["date"] = new(ColumnValueKind.Date, "System.DateOnly", "Date", 4, true),
        ["time"] = new(ColumnValueKind.Time, "System.TimeOnly", "Time", 8, true),
        ["bytea"] = new(ColumnValueKind.Bytea, "byte[]", "Bytea", -1, false),
        // As a string, as the orders' attributes are: the document's text (json keeps it, jsonb normalises it; the checksum compares jsonb as jsonb).
        ["json"] = new(ColumnValueKind.Json, "string", "Json", -1, false),
        ["jsonb"] = new(ColumnValueKind.Jsonb, "string", "Jsonb", -1, false),
        // Not TimeSpan, EF Core's default, which holds no months (1 mon is no fixed number of days): NodaTime's Period,
        // which holds months, days and the time apart, as PostgreSQL does, through Npgsql's NodaTime plugins (both the
        // ADO data source's and EF Core's); Npgsql and linq2db write it through the same data source.
        ["interval"] = new(ColumnValueKind.Interval, "NodaTime.Period", "Interval", 16, false),
        // Text on the wire (text's binary form), a string in EF Core's Npgsql provider.
        ["xml"] = new(ColumnValueKind.Text, "string", "Xml", -1, false),
        // The types EF Core's Npgsql provider maps them to.
        ["macaddr"] = new(ColumnValueKind.MacAddr, "System.Net.NetworkInformation.PhysicalAddress", "MacAddr", 6, false),
        ["macaddr8"] = new(ColumnValueKind.MacAddr, "System.Net.NetworkInformation.PhysicalAddress", "MacAddr8", 8, false),
        ["point"] = new(ColumnValueKind.Point, "NpgsqlTypes.NpgsqlPoint", "Point", 16, true),
        ["circle"] = new(ColumnValueKind.Circle, "NpgsqlTypes.NpgsqlCircle", "Circle", 24, true),
        // inet keeps its netmask (192.168.0.1/24), which IPAddress drops: NpgsqlInet; cidr as .NET's IPNetwork (Npgsql's NpgsqlCidr is obsolete).
        ["inet"] = new(ColumnValueKind.Inet, "NpgsqlTypes.NpgsqlInet", "Inet", -1, true),
        ["cidr"] = new(ColumnValueKind.Cidr, "System.Net.IPNetwork", "Cidr", -1, true),
        // decimal, as Npgsql reads money: cash_send's int64 of hundredths (exact both ways: Npgsql writes the decimal times 100 back).
        ["money"] = new(ColumnValueKind.Money, "decimal", "Money", 8, true),
        // BitArray, as EF Core's Npgsql provider maps bit(n) and varbit (Npgsql's ADO default for bit(1) is bool; the entity declares BitArray for every length).
        ["bit"] = new(ColumnValueKind.Bits, "System.Collections.BitArray", "Bit", -1, false),
        ["varbit"] = new(ColumnValueKind.Bits, "System.Collections.BitArray", "Varbit", -1, false),
        // Npgsql's own types, which EF Core's provider maps them to (its full-text search mapping).
        ["tsvector"] = new(ColumnValueKind.TsVector, "NpgsqlTypes.NpgsqlTsVector", "TsVector", -1, false),
        ["tsquery"] = new(ColumnValueKind.TsQuery, "NpgsqlTypes.NpgsqlTsQuery", "TsQuery", -1, false),
    };

    /// <summary>The element types an array of the generator's is of (an array is T?[] of one dimension from 1: NULL elements kept): those every writer's library reads as an array of the element's CLR type.</summary>
    private static readonly HashSet<ColumnValueKind> ArrayElements =
    [
        ColumnValueKind.Boolean, ColumnValueKind.Int16, ColumnValueKind.Int32, ColumnValueKind.Int64, ColumnValueKind.Float4, ColumnValueKind.Float8,
        ColumnValueKind.Numeric, ColumnValueKind.Text, ColumnValueKind.Uuid, ColumnValueKind.Timestamp, ColumnValueKind.TimestampTz, ColumnValueKind.Date,
        ColumnValueKind.Time, ColumnValueKind.Jsonb, ColumnValueKind.Json,
    ];

    /// <summary>PostgreSQL's built-in ranges by subtype, as NpgsqlRange&lt;T&gt; of the subtype's CLR type; each multirange as NpgsqlRange&lt;T&gt;[] (EF Core's Npgsql provider's mappings).</summary>
    private static readonly Dictionary<string, (string Subtype, string Range, bool Multi)> Ranges = WithMultiranges(new(StringComparer.Ordinal)
    {
        ["int4range"] = ("int4", "IntegerRange", false),
        ["int8range"] = ("int8", "BigIntRange", false),
        ["numrange"] = ("numeric", "NumericRange", false),
        ["tsrange"] = ("timestamp", "TimestampRange", false),
        ["tstzrange"] = ("timestamptz", "TimestampTzRange", false),
        ["daterange"] = ("date", "DateRange", false),
    });

    /// <summary>Each range's multirange, named as PostgreSQL names it (int4range → int4multirange, IntegerRange → IntegerMultirange).</summary>
    private static Dictionary<string, (string Subtype, string Range, bool Multi)> WithMultiranges(Dictionary<string, (string Subtype, string Range, bool Multi)> ranges)
    {
        foreach (var (name, range) in ranges.ToList())
        {
            ranges[name.Replace("range", "multirange", StringComparison.Ordinal)] = (range.Subtype, range.Range.Replace("Range", "Multirange", StringComparison.Ordinal), true);
        }

        return ranges;
    }

    /// <summary>
    /// Kinds only NpgsqlCopy's COPY decoder reads into the generated class so far: the typed fetches' wire formats (the
    /// EF fetches' JSON, ArrowStream's schema, GrpcStream's .proto) are generated per kind and have none for them.
    /// </summary>
    public static bool OnlyFromCopy(ColumnValueKind kind) => kind is ColumnValueKind.Interval or ColumnValueKind.MacAddr or ColumnValueKind.Point or ColumnValueKind.Circle
        or ColumnValueKind.Inet or ColumnValueKind.Cidr or ColumnValueKind.Money or ColumnValueKind.Bits or ColumnValueKind.Array or ColumnValueKind.Range
        or ColumnValueKind.Multirange or ColumnValueKind.TsVector or ColumnValueKind.TsQuery;

    private static readonly ColumnClrType TextArray = new(ColumnValueKind.TextArray, "string?[]", "Array | Text", -1, false);
    private static readonly ColumnClrType Enum = new(ColumnValueKind.Enum, "", "", -1, true);

    // citext (contrib's extension, so outside pg_catalog): a string, as Npgsql and EF Core's provider read it; the target gets the extension (TableCatalog).
    private static readonly ColumnClrType Citext = new(ColumnValueKind.Text, "string", "Citext", -1, false);

    /// <summary>The CLR type <paramref name="column"/>'s values are held in, or null with <paramref name="whyNot"/> saying why none is.</summary>
    public static ColumnClrType? Of(TableColumn column, out string whyNot)
    {
        whyNot = "";
        var type = column.Base;
        if (type is null)
        {
            whyNot = "its type was not read from the catalog";
            return null;
        }

        if (type.Kind == "e")
        {
            return Enum;
        }

        if (type.Name == "_text")
        {
            return TextArray;
        }

        if (type is { Kind: "b", Name: "", TypeName: "citext" })
        {
            return Citext;
        }

        if (Mapped.TryGetValue(type.Name, out var mapped))
        {
            return mapped;
        }

        if ((ArrayOf(type) ?? RangeOf(type)) is { } composed)
        {
            return composed;
        }

        whyNot = Unmapped(type);
        return null;
    }

    /// <summary>An array of a mapped element (<see cref="ArrayElements"/>) as T?[], written as Array | the element's NpgsqlDbType.</summary>
    private static ColumnClrType? ArrayOf(ColumnBaseType type) =>
        type.Element.Length > 0 && Mapped.TryGetValue(type.Element, out var element) && ArrayElements.Contains(element.Kind)
            ? new(ColumnValueKind.Array, $"{element.ClrType}?[]", $"Array | {element.NpgsqlDbType}", -1, false, element)
            : null;

    private static ColumnClrType? RangeOf(ColumnBaseType type)
    {
        if (!Ranges.TryGetValue(type.Name, out var range))
        {
            return null;
        }

        var subtype = Mapped[range.Subtype];
        return range.Multi
            ? new(ColumnValueKind.Multirange, $"NpgsqlTypes.NpgsqlRange<{subtype.ClrType}>[]", range.Range, -1, false, subtype)
            : new(ColumnValueKind.Range, $"NpgsqlTypes.NpgsqlRange<{subtype.ClrType}>", range.Range, -1, true, subtype);
    }

    private static string Unmapped(ColumnBaseType type) => type switch
    {
        { Kind: "r" or "m" } => "the generator maps the built-in ranges and multiranges (int4, int8, num, ts, tstz, date) alone",
        { Element.Length: > 0 } => "the generator maps arrays of bool, int2/4/8, float4/8, numeric, text, varchar, char(n), uuid, timestamp, timestamptz, date, time, json and jsonb alone",
        { Kind: "e" or "b", Name.Length: > 0 } => "the generator does not map this type (it maps bool, int2/4/8, float4/8, numeric, money, text, varchar, char(n), citext, xml, uuid, timestamp, timestamptz, date, time, interval, bytea, bit, varbit, json, jsonb, tsvector, tsquery, inet, cidr, macaddr, macaddr8, point, circle, arrays of the plain ones, the built-in ranges and multiranges, enums and domains over them)",
        _ => "the generator maps no user-defined type but an enum or a domain over a type it maps",
    };
}
