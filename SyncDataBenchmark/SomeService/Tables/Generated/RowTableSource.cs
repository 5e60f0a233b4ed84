using System.Text;
using SyncData.Model.Generated;
using SyncData.Postgres.Catalog;

namespace SomeService.Tables.Generated;

/// <summary>
/// The generated row table of a described table: its COPY decoder (a <see cref="GeneratedCopyDecoder{TRow}"/>, one
/// case per column, as UsersCopyDecoder and OrdersCopyDecoder are written), its importer writes (each column with its
/// NpgsqlDbType, an enum by its type's name), its EF context, and its enums' mapping on the table's data source: the
/// tail SomeService adds to the shared row classes (<see cref="RowClassSource"/>).
/// </summary>
internal static class RowTableSource
{
    public const string TypeName = "GeneratedTable";

    public const string DecoderName = "GeneratedCopyDecoder";

    public const string GrpcRowsName = "GeneratedGrpcRows";

    /// <summary>The names the tail's types take, kept from the generated entity's and enums'.</summary>
    public static IReadOnlyCollection<string> Reserved { get; } = [TypeName, DecoderName, GrpcRowsName];

    /// <summary>
    /// The tail for <paramref name="table"/> (named <paramref name="tableName"/> in a refusal); with
    /// <paramref name="wire"/>, the namespace of protoc's classes for the table's GrpcStream messages (DescribedProto),
    /// its GrpcStream rows too.
    /// </summary>
    public static RowClassTail For(string tableName, TableDescription table, string? wire) =>
        (source, entity, columns, enums) => Append(source, tableName, table, entity, columns, enums, wire);

    private static void Append(StringBuilder source, string tableName, TableDescription table, string entity,
        List<GeneratedColumn> columns, List<(string Name, ColumnBaseType Type)> mapped, string? wire)
    {
        source.AppendLine($"public sealed class {TypeName}(SyncData.Postgres.SyncTable table, NpgsqlDataSource? dataSource)");
        source.AppendLine($"    : SomeService.Tables.Generated.GeneratedRowTable<{entity}>(table, dataSource)").AppendLine("{");
        source.AppendLine("    /// <summary>Npgsql's side of the enums: on the data source the run's connection comes from.</summary>");
        source.AppendLine($"    public static void MapTypes(NpgsqlDataSourceBuilder dataSource) => {RowClassSource.ContextOf(entity)}.MapTypes(dataSource);");
        source.AppendLine($"    public const bool MapsTypes = {RowClassSource.ContextOf(entity)}.MapsTypes;");
        source.AppendLine($"    public override SomeService.Fetch.CopyRowDecoder<{entity}> NewCopyDecoder() => new {DecoderName}();");
        source.AppendLine($"    public override DbContext NewDbContext(NpgsqlConnection connection, int commandTimeoutSeconds) => {RowClassSource.ContextOf(entity)}.Open(connection, commandTimeoutSeconds);");
        source.AppendLine($"    public override void Write(NpgsqlBinaryImporter importer, {entity} row)").AppendLine("    {");
        source.AppendLine("        importer.StartRow();");
        foreach (var column in columns)
        {
            var type = column.EnumName is null ? $"NpgsqlDbType.{column.Clr.NpgsqlDbType.Replace(" | ", " | NpgsqlDbType.", StringComparison.Ordinal)}" : RowClassSource.Literal(RowClassSource.PgName(column.Column.Base!));
            source.AppendLine($"        importer.Write(row.{column.Property}, {type});");
        }

        source.AppendLine("    }");
        AppendKeyOf(source, table, entity, columns);
        AppendArrowRows(source, table, entity, columns);
        if (wire is not null)
        {
            AppendGrpcRowsOf(source, table, entity, columns, wire);
        }

        source.AppendLine("}");
        if (wire is not null)
        {
            AppendGrpcRows(source, entity, wire);
        }

        AppendDecoder(source, tableName, table, entity, columns, mapped);
    }

    /// <summary>
    /// The key as EFKeysetPaging's "after" carries it: every key column's value, in key order (<see cref="GeneratedKey"/>);
    /// a table without a key has none (the base's refusal stands; DescribedTableReach refuses the paging first).
    /// </summary>
    private static void AppendKeyOf(StringBuilder source, TableDescription table, string entity, List<GeneratedColumn> columns)
    {
        if (table.PrimaryKey.Count > 0)
        {
            var values = table.PrimaryKey.Select(k => $"row.{columns.First(c => c.Column.Name == k).Property}");
            source.AppendLine($"    public override string KeyOf({entity} row) => SyncData.Model.Generated.GeneratedKey.Text({string.Join(", ", values)});");
        }
    }

    /// <summary>
    /// ArrowStream's rows: each column of the record batch cast once to its Arrow array (the schema was checked against
    /// <see cref="SyncData.Arrow.DescribedArrow"/>), then per row each value into its property, the key's first so a
    /// refusal names the row by it; NULL only where the column is nullable.
    /// </summary>
    private static void AppendArrowRows(StringBuilder source, TableDescription table, string entity, List<GeneratedColumn> columns)
    {
        source.AppendLine($"    protected override string KeyText({entity} row) => {KeyText(table, columns, "row")};");
        source.AppendLine($"    public override System.Collections.Generic.IEnumerable<{entity}> ArrowRows(Apache.Arrow.RecordBatch batch)").AppendLine("    {");
        foreach (var column in columns)
        {
            var array = column.Clr.Kind == ColumnValueKind.Uuid
                ? $"SyncData.Arrow.ArrowFormat.Storage(batch.Column({column.Field}))"
                : $"(Apache.Arrow.{ArrowArray(column.Clr.Kind)})batch.Column({column.Field})";
            source.AppendLine($"        var c{column.Field} = {array};");
        }

        source.AppendLine("        for (var i = 0; i < batch.Length; i++)").AppendLine("        {");
        source.AppendLine($"            var row = new {entity}();");
        foreach (var column in KeyFirst(table, columns))
        {
            var value = ArrowValue(column);
            source.AppendLine($"            row.{column.Property} = {(column.Nullable ? $"c{column.Field}.IsNull(i) ? null : {value}" : value)};");
        }

        source.AppendLine("            yield return row;").AppendLine("        }").AppendLine("    }");
    }

    /// <summary>GrpcStream's call of the table: the described call naming it, its batches read by the table (<c>GrpcRowsOf</c>).</summary>
    private static void AppendGrpcRows(StringBuilder source, string entity, string wire)
    {
        var batch = $"{wire}.{SyncData.Grpc.Described.DescribedProto.BatchMessage}";
        source.AppendLine($"public sealed class {GrpcRowsName}({TypeName} table) : SomeService.Fetch.GrpcStreamRows<{entity}, {batch}>").AppendLine("{");
        source.AppendLine($"    private static readonly Grpc.Core.Method<SyncData.Grpc.DescribedRequest, {batch}> Method = SyncData.Grpc.Described.DescribedCall.For({batch}.Parser);");
        source.AppendLine($"    protected override Grpc.Core.AsyncServerStreamingCall<{batch}> Call(Grpc.Core.CallInvoker invoker, Grpc.Core.CallOptions options) =>");
        source.AppendLine("        invoker.AsyncServerStreamingCall(Method, null, options, new SyncData.Grpc.DescribedRequest { Table = table.Table.Name });");
        source.AppendLine($"    protected override System.Collections.Generic.IEnumerable<{entity}> RowsOf({batch} batch) => table.GrpcRowsOf(batch);");
        source.AppendLine("}");
    }

    /// <summary>GrpcStream's rows: each message's fields into the properties, the key's first so a refusal names the row by it.</summary>
    private static void AppendGrpcRowsOf(StringBuilder source, TableDescription table, string entity, List<GeneratedColumn> columns, string wire)
    {
        source.AppendLine($"    private {GrpcRowsName}? _grpc;");
        source.AppendLine($"    public override SomeService.Fetch.IGrpcStreamRows<{entity}> GrpcStream => _grpc ??= new {GrpcRowsName}(this);");
        source.AppendLine($"    internal System.Collections.Generic.IEnumerable<{entity}> GrpcRowsOf({wire}.{SyncData.Grpc.Described.DescribedProto.BatchMessage} batch)").AppendLine("    {");
        source.AppendLine("        var rows = batch.Rows;");
        source.AppendLine("        for (var i = 0; i < rows.Count; i++)").AppendLine("        {");
        source.AppendLine("            var m = rows[i];");
        source.AppendLine($"            var row = new {entity}();");
        foreach (var column in KeyFirst(table, columns))
        {
            var p = $"m.C{column.Field}";
            var value = GrpcValue(column, p);
            var present = column.Clr.Kind switch
            {
                ColumnValueKind.Uuid => $"m.HasC{column.Field}High",
                ColumnValueKind.TextArray => $"!{p}IsNull",
                _ => $"m.HasC{column.Field}",
            };
            source.AppendLine($"            row.{column.Property} = {(column.Nullable ? $"{present} ? {value} : null" : value)};");
        }

        source.AppendLine("            yield return row;").AppendLine("        }").AppendLine("    }");
    }

    /// <summary>The expression that reads column <paramref name="column"/>'s value from its field <paramref name="p"/> of message <c>m</c>, row <c>i</c>.</summary>
    private static string GrpcValue(GeneratedColumn column, string p)
    {
        var name = RowClassSource.Literal(column.Column.Name);
        return column.Clr.Kind switch
        {
            ColumnValueKind.Int16 => $"checked((short){p})",
            ColumnValueKind.Boolean or ColumnValueKind.Int32 or ColumnValueKind.Int64 or ColumnValueKind.Float4 or ColumnValueKind.Float8
                or ColumnValueKind.Text or ColumnValueKind.Json or ColumnValueKind.Jsonb => p,
            ColumnValueKind.Numeric => $"DecimalOf({p}, {name}, GrpcBatch, i, row)",
            ColumnValueKind.Uuid => $"SyncData.Grpc.GrpcUuid.FromHalves({p}High, {p}Low)",
            ColumnValueKind.Timestamp => $"TimestampOf({p}, System.DateTimeKind.Unspecified, {name}, GrpcBatch, i, row)",
            ColumnValueKind.TimestampTz => $"TimestampOf({p}, System.DateTimeKind.Utc, {name}, GrpcBatch, i, row)",
            ColumnValueKind.Date => $"DateOf({p}, {name}, GrpcBatch, i, row)",
            ColumnValueKind.Time => $"TimeOf({p}, {name}, GrpcBatch, i, row)",
            ColumnValueKind.Bytea => $"{p}.ToByteArray()",
            ColumnValueKind.TextArray => $"GrpcTextArray({p}, {p}NullAt)",
            ColumnValueKind.Enum => $"LabelOf({p}, {name}, {DecoderName}.{column.EnumName}Labels, GrpcBatch, i, row)",
            _ when ColumnClrTypes.OnlyFromCopy(column.Clr.Kind) => $"NotCarried<{column.Clr.ClrType}>({name}, \"GrpcStream\")",
            _ => throw new InvalidOperationException($"No gRPC reading for {column.Clr.Kind}."),
        };
    }

    /// <summary>The key columns first, then the rest in COPY order: a refusal of a later column names the row by its key.</summary>
    private static IEnumerable<GeneratedColumn> KeyFirst(TableDescription table, List<GeneratedColumn> columns)
    {
        var keys = columns.Where(c => table.PrimaryKey.Contains(c.Column.Name)).ToList();
        return keys.Concat(columns.Except(keys));
    }

    /// <summary>An interpolated string of the key's columns of <paramref name="row"/> ("name = value, …"), for a refusal.</summary>
    private static string KeyText(TableDescription table, List<GeneratedColumn> columns, string row)
    {
        var key = columns.Where(c => table.PrimaryKey.Contains(c.Column.Name))
            .Select(c => $"{c.Column.Name.Replace("{", "{{", StringComparison.Ordinal).Replace("}", "}}", StringComparison.Ordinal)} = {{{row}.{c.Property}}}");
        return "$" + RowClassSource.Literal(string.Join(", ", key));
    }

    private const string Micros = "SyncData.Arrow.ArrowFormat.ToPostgresMicros", Days = "SyncData.Arrow.ArrowFormat.ToPostgresDays";

    private static string ArrowArray(ColumnValueKind kind) => kind switch
    {
        ColumnValueKind.Boolean => "BooleanArray",
        ColumnValueKind.Int16 => "Int16Array",
        ColumnValueKind.Int32 => "Int32Array",
        ColumnValueKind.Int64 => "Int64Array",
        ColumnValueKind.Float4 => "FloatArray",
        ColumnValueKind.Float8 => "DoubleArray",
        ColumnValueKind.Timestamp or ColumnValueKind.TimestampTz => "TimestampArray",
        ColumnValueKind.Date => "Date32Array",
        ColumnValueKind.Time => "Time64Array",
        ColumnValueKind.Bytea => "BinaryArray",
        ColumnValueKind.TextArray => "ListArray",
        _ => "StringArray",
    };

    /// <summary>The expression that reads column <paramref name="column"/>'s value at row <c>i</c> of its array <c>c{Field}</c>.</summary>
    private static string ArrowValue(GeneratedColumn column)
    {
        var (c, name) = ($"c{column.Field}", RowClassSource.Literal(column.Column.Name));
        return column.Clr.Kind switch
        {
            ColumnValueKind.Boolean => $"{c}.GetValue(i)!.Value",
            ColumnValueKind.Int16 or ColumnValueKind.Int32 or ColumnValueKind.Int64 or ColumnValueKind.Float4 or ColumnValueKind.Float8 => $"{c}.Values[i]",
            ColumnValueKind.Numeric => $"DecimalOf({c}.GetString(i)!, {name}, ArrowBatch, i, row)",
            ColumnValueKind.Text or ColumnValueKind.Json or ColumnValueKind.Jsonb => $"{c}.GetString(i)!",
            ColumnValueKind.Uuid => $"new System.Guid({c}.GetBytes(i), bigEndian: true)",
            ColumnValueKind.Timestamp => $"TimestampOf({Micros}({c}.Values[i]), System.DateTimeKind.Unspecified, {name}, ArrowBatch, i, row)",
            ColumnValueKind.TimestampTz => $"TimestampOf({Micros}({c}.Values[i]), System.DateTimeKind.Utc, {name}, ArrowBatch, i, row)",
            ColumnValueKind.Date => $"DateOf({Days}({c}.Values[i]), {name}, ArrowBatch, i, row)",
            ColumnValueKind.Time => $"TimeOf({c}.Values[i], {name}, ArrowBatch, i, row)",
            ColumnValueKind.Bytea => $"{c}.GetBytes(i).ToArray()",
            ColumnValueKind.TextArray => $"ArrowTextArray({c}, i)",
            ColumnValueKind.Enum => $"LabelOf({c}.GetString(i)!, {name}, {DecoderName}.{column.EnumName}Labels, ArrowBatch, i, row)",
            _ when ColumnClrTypes.OnlyFromCopy(column.Clr.Kind) => $"NotCarried<{column.Clr.ClrType}>({name}, \"ArrowStream\")",
            _ => throw new InvalidOperationException($"No Arrow reading for {column.Clr.Kind}."),
        };
    }

    private static void AppendDecoder(StringBuilder source, string tableName, TableDescription table, string entity,
        List<GeneratedColumn> columns, List<(string Name, ColumnBaseType Type)> enums)
    {
        source.AppendLine($"public sealed class {DecoderName}() : SomeService.Tables.Generated.GeneratedCopyDecoder<{entity}>(TableName, ColumnNames, FixedLengths, NullableColumns)").AppendLine("{");
        source.AppendLine($"    private const string TableName = {RowClassSource.Literal(tableName)};");
        source.AppendLine($"    private static readonly string[] ColumnNames = [{string.Join(", ", columns.Select(c => RowClassSource.Literal(c.Column.Name)))}];");
        source.AppendLine($"    private static readonly int[] FixedLengths = [{string.Join(", ", columns.Select(c => c.Clr.FixedLength))}];");
        source.AppendLine($"    private static readonly bool[] NullableColumns = [{string.Join(", ", columns.Select(c => c.Nullable ? "true" : "false"))}];");
        foreach (var (name, type) in enums)
        {
            source.AppendLine($"    internal static readonly System.Collections.Generic.Dictionary<string, {name}> {name}Labels =");
            source.AppendLine($"        System.Enum.GetValues<{name}>().Zip(new[] {{ {string.Join(", ", type.Labels.Select(RowClassSource.Literal))} }}).ToDictionary(p => p.Second, p => p.First);");
        }

        source.AppendLine($"    private {entity} _row = new();");
        source.AppendLine($"    protected override string KeySoFar => {KeyText(table, columns, "_row")};");
        source.AppendLine("    protected override void DecodeField(int field, System.ReadOnlySpan<byte> bytes)").AppendLine("    {");
        source.AppendLine("        switch (field)").AppendLine("        {");
        foreach (var column in columns)
        {
            source.AppendLine($"            case {column.Field}: _row.{column.Property} = {Decode(column)}; break;");
        }

        source.AppendLine("        }").AppendLine("    }");
        source.AppendLine("    // A NULL leaves the property at its default, null: each row starts from a new object.");
        source.AppendLine("    protected override void DecodeNull(int field) { }");
        source.AppendLine($"    protected override {entity} CompleteRow()").AppendLine("    {");
        source.AppendLine("        var row = _row;").AppendLine("        _row = new();").AppendLine("        return row;").AppendLine("    }").AppendLine("}");
    }

    /// <summary>The expression that reads column <paramref name="column"/>'s binary value from <c>bytes</c>.</summary>
    private static string Decode(GeneratedColumn column) => Decode(column.Clr, RowClassSource.Literal(column.Column.Name), column.EnumName);

    /// <summary>The expression that reads a value of <paramref name="clr"/> from <c>bytes</c>, naming column <paramref name="name"/> (a C# literal) in a refusal.</summary>
    private static string Decode(ColumnClrType clr, string name, string? enumName) => clr.Kind switch
    {
        ColumnValueKind.Boolean => "bytes[0] != 0",
        ColumnValueKind.Int16 => "BinaryPrimitives.ReadInt16BigEndian(bytes)",
        ColumnValueKind.Int32 => "BinaryPrimitives.ReadInt32BigEndian(bytes)",
        ColumnValueKind.Int64 => "BinaryPrimitives.ReadInt64BigEndian(bytes)",
        ColumnValueKind.Float4 => "BinaryPrimitives.ReadSingleBigEndian(bytes)",
        ColumnValueKind.Float8 => "BinaryPrimitives.ReadDoubleBigEndian(bytes)",
        ColumnValueKind.Numeric => $"Decimal(bytes, {name})",
        ColumnValueKind.Text or ColumnValueKind.Json => "System.Text.Encoding.UTF8.GetString(bytes)",
        ColumnValueKind.Jsonb => $"Jsonb(bytes, {name})",
        ColumnValueKind.Uuid => "new System.Guid(bytes, bigEndian: true)",
        ColumnValueKind.Timestamp => $"Timestamp(BinaryPrimitives.ReadInt64BigEndian(bytes), {name}, System.DateTimeKind.Unspecified)",
        ColumnValueKind.TimestampTz => $"Timestamp(BinaryPrimitives.ReadInt64BigEndian(bytes), {name}, System.DateTimeKind.Utc)",
        ColumnValueKind.Date => $"Date(BinaryPrimitives.ReadInt32BigEndian(bytes), {name})",
        ColumnValueKind.Time => $"Time(BinaryPrimitives.ReadInt64BigEndian(bytes), {name})",
        ColumnValueKind.Bytea => "bytes.ToArray()",
        ColumnValueKind.TextArray => $"TextArray(bytes, {name})",
        ColumnValueKind.Enum => $"Label(bytes, {name}, {enumName}Labels)",
        ColumnValueKind.Interval => $"Interval(bytes, {name})",
        ColumnValueKind.MacAddr => "new System.Net.NetworkInformation.PhysicalAddress(bytes.ToArray())",
        ColumnValueKind.Point => "new NpgsqlTypes.NpgsqlPoint(BinaryPrimitives.ReadDoubleBigEndian(bytes), BinaryPrimitives.ReadDoubleBigEndian(bytes[8..]))",
        ColumnValueKind.Inet => "Inet(bytes)",
        ColumnValueKind.Cidr => "Cidr(bytes)",
        ColumnValueKind.Circle => "new NpgsqlTypes.NpgsqlCircle(BinaryPrimitives.ReadDoubleBigEndian(bytes), BinaryPrimitives.ReadDoubleBigEndian(bytes[8..]), BinaryPrimitives.ReadDoubleBigEndian(bytes[16..]))",
        ColumnValueKind.Money => "Money(bytes)",
        ColumnValueKind.Bits => "Bits(bytes)",
        ColumnValueKind.TsVector => "SomeService.Fetch.PostgresTextSearch.TsVector(bytes)",
        ColumnValueKind.TsQuery => $"TsQuery(bytes, {name})",
        // Each element or bound read as a column of its type is (the lambda's bytes the element's), named by the column.
        ColumnValueKind.Array => $"ArrayOf<{clr.Element!.ClrType}?>(bytes, {name}, bytes => {Decode(clr.Element, name, null)})",
        ColumnValueKind.Range => $"RangeOf<{clr.Element!.ClrType}>(bytes, bytes => {Decode(clr.Element, name, null)})",
        ColumnValueKind.Multirange => $"MultirangeOf<{clr.Element!.ClrType}>(bytes, bytes => {Decode(clr.Element, name, null)})",
        _ => throw new InvalidOperationException($"No decoding for {clr.Kind}."),
    };
}
