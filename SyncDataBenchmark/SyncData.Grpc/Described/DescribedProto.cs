using System.Text;
using SyncData.Postgres.Catalog;

namespace SyncData.Grpc.Described;

/// <summary>
/// The .proto a team would write for GrpcStream on its own table, generated from the table's catalog description with
/// the written tables' choices (grpc_stream.proto): a message <c>Row</c> of one field per COPY column and a message
/// <c>Batch</c> of rows. Per kind of value: integers as int32/int64, real and double as float/double, a uuid as two
/// fixed64 (its big-endian halves), numeric, json, jsonb and an enum's label as PostgreSQL's text, timestamps as its
/// microseconds since 2000 (sfixed64, ±infinity as int64 max/min), dates as its days (sint32), time as microseconds,
/// bytea as bytes, text[] as its elements with the positions of NULL ones. A nullable column's field is proto3
/// <c>optional</c> (text[]: an IsNull flag). Fields are named by COPY position (c0, c1, …; the column in a comment): the
/// wire carries numbers, not names, and protoc's C# names follow without a rule to guess. Both services generate it from
/// their own catalogs and compile protoc's C# (<see cref="Protoc"/>).
/// </summary>
public static class DescribedProto
{
    /// <summary>The generated messages' names.</summary>
    public const string RowMessage = "Row", BatchMessage = "Batch";

    /// <summary>Every COPY column of <paramref name="table"/> as a field; every type must be one the generator maps (DescribedTableReach refuses the rest first).</summary>
    public static IReadOnlyList<ProtoField> Fields(TableDescription table) =>
        [.. table.CopyColumns.Select((column, i) => new ProtoField(i, column,
            (ColumnClrTypes.Of(column, out var why) ?? throw new InvalidOperationException(
                $"{table.QualifiedName}'s column {TableDescription.Quote(column.Name)} is {column.Type}: {why}.")).Kind, $"C{i}"))];

    /// <summary>The .proto of <paramref name="table"/>'s messages, in C# namespace <paramref name="ns"/>.</summary>
    public static string Of(TableDescription table, string ns)
    {
        var proto = new StringBuilder();
        proto.AppendLine("syntax = \"proto3\";").AppendLine("package syncdata.described;");
        proto.AppendLine($"option csharp_namespace = \"{ns}\";");
        proto.AppendLine($"// {Comment(table.QualifiedName)} as GrpcStream carries it, generated from its catalog (SyncData.Grpc/Described).");
        proto.AppendLine($"message {RowMessage} {{");
        var number = 1;
        foreach (var field in Fields(table))
        {
            proto.AppendLine($"  // {Comment(TableDescription.Quote(field.Column.Name))} {Comment(field.Column.Type)}");
            foreach (var line in Declarations(field))
            {
                proto.AppendLine($"  {line} = {number++};");
            }
        }

        proto.AppendLine("}");
        proto.AppendLine($"message {BatchMessage} {{").AppendLine($"  repeated {RowMessage} rows = 1;").AppendLine("}");
        return proto.ToString();
    }

    /// <summary>The field declarations of one column, without their numbers.</summary>
    private static IEnumerable<string> Declarations(ProtoField field)
    {
        var (name, optional) = ($"c{field.Index}", field.Nullable ? "optional " : "");
        switch (field.Kind)
        {
            case ColumnValueKind.Uuid:
                yield return $"{optional}fixed64 {name}_high";
                yield return $"fixed64 {name}_low";
                break;
            case ColumnValueKind.TextArray:
                yield return $"repeated string {name}";
                yield return $"repeated uint32 {name}_null_at";
                if (field.Nullable)
                {
                    yield return $"bool {name}_is_null";
                }

                break;
            default:
                yield return $"{optional}{ScalarType(field.Kind)} {name}";
                break;
        }
    }

    private static string ScalarType(ColumnValueKind kind) => kind switch
    {
        ColumnValueKind.Boolean => "bool",
        ColumnValueKind.Int16 or ColumnValueKind.Int32 => "int32",
        ColumnValueKind.Int64 or ColumnValueKind.Time => "int64",
        ColumnValueKind.Float4 => "float",
        ColumnValueKind.Float8 => "double",
        ColumnValueKind.Timestamp or ColumnValueKind.TimestampTz => "sfixed64",
        ColumnValueKind.Date => "sint32",
        ColumnValueKind.Bytea => "bytes",
        _ => "string",
    };

    private static string Comment(string text) => text.ReplaceLineEndings(" ");
}
