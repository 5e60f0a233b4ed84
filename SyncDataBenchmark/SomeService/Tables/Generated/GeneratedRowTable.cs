using System.Globalization;
using SyncData.Model.Generated;
using System.Text.Json.Serialization.Metadata;
using Apache.Arrow;
using Google.Protobuf.Collections;
using Npgsql;
using SomeService.Fetch;
using SyncData.Arrow;
using SyncData.Postgres;

namespace SomeService.Tables.Generated;

/// <summary>
/// The base of a row table generated from a described table's catalog (<see cref="RowClassSource"/>): the generated
/// subclass writes the COPY decoder, <see cref="RowTable{TRow}.Write"/> and the EF context per column, the key as
/// EFKeysetPaging's "after" carries it (<see cref="GeneratedKey"/>), and ArrowStream's rows column by column; this
/// holds the table, the data source its enums are mapped on, EFStream's JSON of the class, ArrowStream's schema
/// (<see cref="DescribedArrow"/>), its batches' COPY encoding for the raw writers (<see cref="DescribedArrowCopyColumns"/>),
/// and the refusals of an Arrow or gRPC value the class cannot hold. The generated subclass adds GrpcStream's rows when
/// protoc compiled the table's messages.
/// </summary>
public abstract class GeneratedRowTable<TRow>(SyncTable table, NpgsqlDataSource? dataSource) : RowTable<TRow>
    where TRow : class
{
    public override SyncTable Table => table;

    public override NpgsqlDataSource? DataSource => dataSource;

    /// <summary>EFStream's rows, as the source's generated classes write them (<see cref="GeneratedRowJson"/>).</summary>
    public override JsonTypeInfo<TRow> Json => _json.Value;

    // Made when an EF fetch first reads: a class with a property JSON is not generated for (interval's Period) is not read so.
    private readonly Lazy<JsonTypeInfo<TRow>> _json = new(GeneratedRowJson.Of<TRow>);

    public override string KeyOf(TRow row) => throw NotGenerated("a key to page after: the table has no primary key");

    /// <summary>GrpcStream's rows, generated with the table's messages when protoc was there to compile its .proto.</summary>
    public override IGrpcStreamRows<TRow> GrpcStream => throw NotGenerated($"its gRPC messages: protoc, which generates them from the table's .proto, is not at {SyncData.Grpc.Described.Protoc.Path}");

    private readonly Lazy<Schema> _arrowSchema = new(() => DescribedArrow.Of(table.Description!));

    public override string? ArrowMismatch(Schema received) => ArrowFormat.Mismatch(_arrowSchema.Value, received);

    /// <summary>ArrowStream's batches as binary COPY for the raw writers, derived from the description (<see cref="DescribedArrowCopyColumns"/>).</summary>
    public override ArrowCopyColumns ArrowCopy => _arrowCopy.Value;

    private readonly Lazy<ArrowCopyColumns> _arrowCopy = new(() => new DescribedArrowCopyColumns(table.Description!));

    private NotSupportedException NotGenerated(string what) =>
        new($"{table.Name} is a described table: its row class is generated for every fetch but without {what}.");

    /// <summary>A value of a kind <paramref name="fetch"/>'s wire format does not carry for a described table (DescribedTableReach refuses the fetch first).</summary>
    protected static T NotCarried<T>(string column, string fetch) =>
        throw new NotSupportedException($"{fetch} carries no {typeof(T).Name} of a described table (column {column}).");

    /// <summary>The row's key columns, "name = value, …", for a refusal; "" for a table without a key.</summary>
    protected virtual string KeyText(TRow row) => "";

    /// <summary>How a batch's rows are named in a refusal: "an Arrow record batch", "a gRPC message".</summary>
    protected const string ArrowBatch = "an Arrow record batch", GrpcBatch = "a gRPC message";

    /// <summary>
    /// PostgreSQL's numeric text into decimal, kept only when decimal prints it back identically (as OrdersGrpcRows): printed
    /// into the stack, not a string per value (a string each was 3 a row of orders, the 1.04–1.05× of GrpcStream's allocation).
    /// </summary>
    protected decimal DecimalOf(string text, string column, string batch, int index, TRow row)
    {
        Span<char> printed = stackalloc char[64];
        return decimal.TryParse(text, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value)
               && value.TryFormat(printed, out var length, provider: CultureInfo.InvariantCulture)
               && printed[..length].SequenceEqual(text)
            ? value
            : throw Refused(batch, index, row, column, text,
                ".NET's decimal holds a 96-bit integer over a power of ten up to 28: no NaN, no ±Infinity, at most 28 decimal places, about 28-29 significant digits");
    }

    /// <summary>PostgreSQL's microseconds since 2000 (±infinity as int64 max/min) into DateTime.</summary>
    protected DateTime TimestampOf(long micros, DateTimeKind kind, string column, string batch, int index, TRow row) =>
        PostgresTimestamp.ToDateTime(micros, kind) ?? throw Refused(batch, index, row, column, PostgresTimestamp.Format(micros) + (kind == DateTimeKind.Utc ? "+00" : ""),
            ".NET's DateTime holds years 1–9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity");

    /// <summary>PostgreSQL's days since 2000 (±infinity as int32 max/min) into DateOnly.</summary>
    protected DateOnly DateOf(int days, string column, string batch, int index, TRow row) =>
        PostgresTimestamp.ToDateOnly(days) ?? throw Refused(batch, index, row, column, PostgresTimestamp.FormatDate(days),
            ".NET's DateOnly holds 0001-01-01 to 9999-12-31, and those two are DateOnly.MinValue/MaxValue, which Npgsql writes as -infinity/infinity");

    protected TimeOnly TimeOf(long micros, string column, string batch, int index, TRow row) =>
        PostgresFields.Time(micros) ?? throw Refused(batch, index, row, column, PostgresFields.FormatTime(micros), ".NET's TimeOnly holds 00:00 to 23:59:59.9999999, not 24:00");

    /// <summary>An enum's label as the generated CLR enum's value (a label added to the type after the class was generated is refused).</summary>
    protected TEnum LabelOf<TEnum>(string label, string column, Dictionary<string, TEnum> labels, string batch, int index, TRow row)
        where TEnum : struct, Enum =>
        labels.TryGetValue(label, out var value)
            ? value
            : throw Refused(batch, index, row, column, $"'{label}'", $"{typeof(TEnum).Name} has no value for the label (values: {string.Join(", ", labels.Keys)})");

    /// <summary>The list's elements at <paramref name="index"/>, NULL elements kept (list&lt;utf8&gt; has one dimension from 1, as string?[]).</summary>
    protected static string?[] ArrowTextArray(ListArray list, int index) => ArrowTextLists.Elements(list, index);

    /// <summary>A text[] field's elements, each position <paramref name="nullAt"/> lists as NULL (as OrdersGrpcRows reads tags).</summary>
    protected static string?[] GrpcTextArray(RepeatedField<string> values, RepeatedField<uint> nullAt)
    {
        var result = new string?[values.Count];
        for (var i = 0; i < result.Length; i++)
        {
            result[i] = values[i];
        }

        foreach (var at in nullAt)
        {
            result[at] = null;
        }

        return result;
    }

    private SourceStreamException Refused(string batch, int index, TRow row, string column, string value, string why) =>
        new($"row {index:N0} of {batch}{(KeyText(row) is { Length: > 0 } key ? $" ({key})" : "")}: {column} = {value} cannot be carried by the class " +
            $"generated for {table.Name}: {why}. The message carried it exactly; no writer fed that class can.");
}
