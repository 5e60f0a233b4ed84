using Apache.Arrow;
using Apache.Arrow.Arrays;
using Apache.Arrow.Types;

namespace SyncData.Arrow;

/// <summary>
/// What every table's Arrow mapping shares: the media type, PostgreSQL's timestamps and dates moved to Arrow's Unix
/// epoch (exactly; ±infinity, which Arrow has no word for, as the integer type's max and min, said by the field's
/// metadata), and the check of a schema that arrived.
/// </summary>
public static class ArrowFormat
{
    /// <summary>The IANA media type of an Arrow IPC stream.</summary>
    public const string ContentType = "application/vnd.apache.arrow.stream";

    /// <summary>2000-01-01 00:00:00 (PostgreSQL's timestamp epoch) in microseconds since 1970-01-01.</summary>
    public const long PostgresEpochUnixMicros = 946_684_800_000_000;

    /// <summary>2000-01-01 (PostgreSQL's date epoch) in days since 1970-01-01.</summary>
    public const int PostgresEpochUnixDays = 10_957;

    /// <summary>The last finite PostgreSQL timestamp that shifts into Arrow's range below the value that means infinity.</summary>
    public const string LastCarriedTimestamp = "294247-01-10 04:00:54.775806";

    /// <summary>How the source's refusal of a value Arrow cannot carry reads, and how it is told from other failures.</summary>
    public const string Refusal = "cannot be carried as an Arrow"; // no quote: it is spliced into SQL literals

    public static readonly KeyValuePair<string, string> TimestampInfinity = new("SyncData:infinity", "int64 max = infinity, int64 min = -infinity (PostgreSQL timestamp)");

    public static readonly KeyValuePair<string, string> DateInfinity = new("SyncData:infinity", "int32 max = infinity, int32 min = -infinity (PostgreSQL date)");

    public static long ToArrowMicros(long postgresMicros) =>
        postgresMicros is long.MaxValue or long.MinValue ? postgresMicros : checked(postgresMicros + PostgresEpochUnixMicros);

    public static long ToPostgresMicros(long arrowMicros) =>
        arrowMicros is long.MaxValue or long.MinValue ? arrowMicros : checked(arrowMicros - PostgresEpochUnixMicros);

    /// <summary>PostgreSQL's date range (4713 BC – 5874897 AD) shifts into int32 with room to spare: every date travels.</summary>
    public static int ToArrowDays(int postgresDays) =>
        postgresDays is int.MaxValue or int.MinValue ? postgresDays : checked(postgresDays + PostgresEpochUnixDays);

    public static int ToPostgresDays(int arrowDays) =>
        arrowDays is int.MaxValue or int.MinValue ? arrowDays : checked(arrowDays - PostgresEpochUnixDays);

    /// <summary>How <paramref name="received"/> differs from <paramref name="expected"/> (names, order, types, nullability), or null when it does not.</summary>
    public static string? Mismatch(Schema expected, Schema received)
    {
        var (wanted, actual) = (Describe(expected), Describe(received));
        return wanted == actual ? null : $"the Arrow schema is ({actual}); expected ({wanted})";
    }

    /// <summary>A uuid column's bytes, whether the reader resolved the arrow.uuid extension (a registry knows it) or left its storage.</summary>
    public static FixedSizeBinaryArray Storage(IArrowArray column) => column is GuidArray guids ? guids.StorageArray : (FixedSizeBinaryArray)column;

    private static string Describe(Schema schema) => string.Join(", ", schema.FieldsList.Select(f => $"{f.Name} {TypeName(f.DataType)}{(f.IsNullable ? " null" : "")}"));

    private static string TypeName(IArrowType type) => type switch
    {
        GuidType => "fixed_size_binary[16]",
        FixedSizeBinaryType fixedSize => $"fixed_size_binary[{fixedSize.ByteWidth}]",
        TimestampType timestamp => $"timestamp[{timestamp.Unit}{(string.IsNullOrEmpty(timestamp.Timezone) ? "" : ", " + timestamp.Timezone)}]",
        ListType list => $"list<{TypeName(list.ValueDataType)}{(list.ValueField.IsNullable ? " null" : "")}>",
        _ => type.Name,
    };
}
