namespace SyncData.Postgres.Catalog;

/// <summary>
/// The SELECT a source reads a described table by into the row class generated for it (<see cref="ColumnClrTypes"/>),
/// derived from the description as the lab's own tables' guarded queries are written by hand (SyncDataSource's
/// sendable-users.sql, sendable-orders.sql): every COPY column under its own name, and each value its CLR type cannot
/// hold exactly replaced by a cast of a message naming the row (its key), the column and the value, which fails when the
/// row is read, before it is sent. A generated column is left out, as the class has no property for it.
/// </summary>
public static class SendableSelect
{
    /// <summary>What a kind's CLR type holds, as SQL over the column ({0}), its value as text, the type the failing cast is to, and why.</summary>
    private sealed record Guard(string Holds, string Text, string CastTo, string Why);

    private static readonly Dictionary<ColumnValueKind, Guard> Guards = new()
    {
        [ColumnValueKind.Timestamp] = new(
            "{0} > timestamp '0001-01-01' and {0} < timestamp '10000-01-01' or {0} in (timestamp 'infinity', timestamp '-infinity')",
            "{0}::text", "timestamp",
            "cannot be read into a .NET DateTime unambiguously (EF Core/Npgsql: years 1-9999; 0001-01-01 00:00:00 is DateTime.MinValue, which means -infinity)"),
        [ColumnValueKind.TimestampTz] = new(
            "{0} > timestamptz '0001-01-01 00:00:00+00' and {0} < timestamptz '10000-01-01 00:00:00+00' or {0} in (timestamptz 'infinity', timestamptz '-infinity')",
            "({0} at time zone 'UTC')::text || '+00'", "timestamptz",
            "cannot be read into a .NET DateTime unambiguously (EF Core/Npgsql: years 1-9999; 0001-01-01 00:00:00 is DateTime.MinValue, which means -infinity)"),
        [ColumnValueKind.Date] = new(
            "{0} > date '0001-01-01' and {0} < date '9999-12-31' or {0} in (date 'infinity', date '-infinity')",
            "{0}::text", "date",
            "cannot be read into a .NET DateOnly unambiguously (EF Core/Npgsql: 0001-01-01 and 9999-12-31 are DateOnly.MinValue/MaxValue, which mean -infinity/infinity)"),
        [ColumnValueKind.Time] = new(
            "{0} < time '24:00'", "{0}::text", "time",
            "cannot be read into a .NET TimeOnly (00:00 to 23:59:59.9999999, not 24:00)"),
        // A 96-bit integer over a power of ten up to 28; NaN and ±Infinity have no scale (null: refused).
        [ColumnValueKind.Numeric] = new(
            "scale({0}) <= 28 and abs({0}) * power(10::numeric, scale({0})) < 79228162514264337593543950336",
            "{0}::text", "numeric",
            "cannot be read into .NET's decimal exactly (EF Core/Npgsql: a 96-bit integer over a power of ten up to 28, no NaN or ±Infinity)"),
        [ColumnValueKind.TextArray] = new(
            "cardinality({0}) = 0 or array_ndims({0}) = 1 and array_lower({0}, 1) = 1", "{0}::text", "text[]",
            "cannot be read into a .NET string?[] (EF Core/Npgsql: one dimension from 1)"),
    };

    /// <summary>
    /// A numeric of declared precision up to 28 and scale from 0 holds only what decimal holds (fewer than 10^28 units of
    /// its scale), but NaN, which PostgreSQL stores under any precision: one comparison, not the general guard's arithmetic.
    /// </summary>
    private static readonly Guard NumericNaN = Guards[ColumnValueKind.Numeric] with { Holds = "{0} <> 'NaN'::numeric" };

    /// <summary>The guarded SELECT of <paramref name="table"/>; <paramref name="refusal"/> ends every refusal, so the source knows one.</summary>
    public static string Of(TableDescription table, string refusal)
    {
        var row = RowNamed(table);
        var columns = table.CopyColumns.Select(c => Guarded(c, row, refusal) + " as " + TableDescription.Quote(c.Name));
        return $"select {string.Join(",\n       ", columns)}\nfrom {table.QualifiedName}";
    }

    /// <summary>
    /// The guarded SELECT as the typed wire formats read it (ArrowStream, GrpcStream): numeric, json, jsonb and an
    /// enum's label as PostgreSQL's text (<see cref="ReadsAsText"/>), which they carry as it is; the rest as their values.
    /// </summary>
    public static string AsWireText(TableDescription table, string refusal)
    {
        var read = table.CopyColumns.Select(c => TableDescription.Quote(c.Name) + (ColumnClrTypes.Of(c, out _) is { } clr && ReadsAsText(clr.Kind) ? "::text" : ""));
        return $"select {string.Join(", ", read)}\nfrom ({Of(table, refusal)}) as sendable";
    }

    /// <summary>Whether the typed wire formats read a kind of value as PostgreSQL's text.</summary>
    public static bool ReadsAsText(ColumnValueKind kind) =>
        kind is ColumnValueKind.Numeric or ColumnValueKind.Json or ColumnValueKind.Jsonb or ColumnValueKind.Enum;

    private static string Guarded(TableColumn column, string row, string refusal)
    {
        var name = TableDescription.Quote(column.Name);
        if (ColumnClrTypes.Of(column, out _) is not { } clr || !Guards.TryGetValue(clr.Kind, out var guard))
        {
            return name;
        }

        if (clr.Kind == ColumnValueKind.Numeric && FitsDecimal(column.Base!))
        {
            guard = NumericNaN;
        }

        var message = $"{row} || {Literal($": {column.Name} = ")} || {string.Format(guard.Text, name)} || {Literal($" {guard.Why}{refusal}")}";
        return $"case when {name} is null or {string.Format(guard.Holds, name)} then {name} else ({message})::{guard.CastTo} end";
    }

    /// <summary>Whether a numeric's typmod (PostgreSQL 15's: precision, and a scale that may be negative) bounds its values within decimal's.</summary>
    private static bool FitsDecimal(ColumnBaseType numeric)
    {
        if (numeric.Modifier < 4)
        {
            return false;
        }

        var precision = ((numeric.Modifier - 4) >> 16) & 0xffff;
        var scale = (((numeric.Modifier - 4) & 0x7ff) ^ 1024) - 1024;
        return precision <= 28 && scale >= 0;
    }

    /// <summary>The row as SQL text: "row 150" by a one-column key, "row (Region = 2, order = 2)" by a composite one, by its ctid without a key.</summary>
    private static string RowNamed(TableDescription table) => table.PrimaryKey switch
    {
        [] => "'row at ' || ctid::text",
        [var key] => $"'row ' || {TableDescription.Quote(key)}::text",
        var keys => "'row (' || " + string.Join(" || ', ' || ", keys.Select(k => $"{Literal(k + " = ")} || {TableDescription.Quote(k)}::text")) + " || ')'",
    };

    private static string Literal(string text) => "'" + text.Replace("'", "''", StringComparison.Ordinal) + "'";
}
