using Apache.Arrow;
using Apache.Arrow.Arrays;
using Apache.Arrow.Types;
using SyncData.Shared;

namespace SyncData.Arrow;

/// <summary>
/// The users table as Arrow columns, the one place both halves of ArrowStream agree on: the schema, the source's record
/// batches built column by column (an instance), the consumer's check of what arrived and its rows read back. Adding a
/// table is adding its own file like this one. The types: id arrow.uuid (FixedSizeBinary(16) in RFC 4122 byte order,
/// PostgreSQL's own), the texts utf8, created_at timestamp[us] without time zone, is_active bool; none nullable, as the
/// columns are not. Arrow counts timestamps from the Unix epoch, PostgreSQL from 2000-01-01: a finite value moves by
/// <see cref="PostgresEpochUnixMicros"/>, exactly. ±infinity, which Arrow has no word for, travel as int64 max and min
/// (the field's metadata says so to any other reader); the finite values that shift would overflow or collide with them
/// (after 294247-01-10 04:00:54.775806, the last 30 of PostgreSQL's years) are refused by the source, by name.
/// </summary>
public sealed class UsersArrow
{
    /// <summary>The IANA media type of an Arrow IPC stream.</summary>
    public const string ContentType = "application/vnd.apache.arrow.stream";

    /// <summary>2000-01-01 00:00:00 (PostgreSQL's timestamp epoch) in microseconds since 1970-01-01.</summary>
    public const long PostgresEpochUnixMicros = 946_684_800_000_000;

    /// <summary>The last finite PostgreSQL timestamp that shifts into Arrow's range below the value that means infinity.</summary>
    public const string LastCarriedTimestamp = "294247-01-10 04:00:54.775806";

    private static readonly TimestampType CreatedAtType = new(TimeUnit.Microsecond, (string?)null);

    public static Schema Schema { get; } = new Schema.Builder()
        .Field(new Field("id", GuidType.Default, nullable: false))
        .Field(new Field("name", StringType.Default, nullable: false))
        .Field(new Field("patronymic", StringType.Default, nullable: false))
        .Field(new Field("surname", StringType.Default, nullable: false))
        .Field(new Field("created_at", CreatedAtType, nullable: false,
            [new("SyncData:infinity", "int64 max = infinity, int64 min = -infinity (PostgreSQL timestamp)")]))
        .Field(new Field("is_active", BooleanType.Default, nullable: false))
        .Build();

    private readonly GuidArray.Builder _id = new();
    private readonly StringArray.Builder _name = new(), _patronymic = new(), _surname = new();
    private readonly ArrowBuffer.Builder<long> _createdAt = new();
    private readonly BooleanArray.Builder _isActive = new();

    /// <summary>Rows appended since the last <see cref="Build"/>.</summary>
    public int Count { get; private set; }

    /// <param name="createdAtPostgresMicros">PostgreSQL's own value: microseconds since 2000-01-01, int64 max/min for ±infinity, checked by the source to be carried.</param>
    public void Append(Guid id, string name, string patronymic, string surname, long createdAtPostgresMicros, bool isActive)
    {
        _id.Append(id);
        _name.Append(name);
        _patronymic.Append(patronymic);
        _surname.Append(surname);
        _createdAt.Append(ToArrowMicros(createdAtPostgresMicros));
        _isActive.Append(isActive);
        Count++;
    }

    /// <summary>The rows appended so far as one record batch (the caller disposes it); the builders start over, keeping their capacity.</summary>
    public RecordBatch Build()
    {
        var batch = new RecordBatch(Schema,
        [
            _id.Build(), _name.Build(), _patronymic.Build(), _surname.Build(),
            new TimestampArray(CreatedAtType, _createdAt.Build(), ArrowBuffer.Empty, Count, 0, 0),
            _isActive.Build(),
        ], Count);
        _id.Clear();
        _name.Clear();
        _patronymic.Clear();
        _surname.Clear();
        _createdAt.Clear();
        _isActive.Clear();
        Count = 0;
        return batch;
    }

    /// <summary>How <paramref name="received"/> differs from <see cref="Schema"/> (names, order, types, nullability), or null when it does not.</summary>
    public static string? Mismatch(Schema received)
    {
        var expected = Describe(Schema);
        var actual = Describe(received);
        return expected == actual ? null : $"the Arrow schema is ({actual}); expected ({expected})";
    }

    /// <summary>
    /// Each row of <paramref name="batch"/> (checked against <see cref="Mismatch"/>) as a <see cref="User"/>;
    /// <paramref name="createdAt"/> turns PostgreSQL's microseconds into a DateTime or refuses the row by name.
    /// </summary>
    public static IEnumerable<User> Rows(RecordBatch batch, Func<long, Guid, DateTime> createdAt)
    {
        var id = Storage(batch.Column(0));
        var (name, patronymic, surname) = ((StringArray)batch.Column(1), (StringArray)batch.Column(2), (StringArray)batch.Column(3));
        var created = (TimestampArray)batch.Column(4);
        var isActive = (BooleanArray)batch.Column(5);
        for (var i = 0; i < batch.Length; i++)
        {
            var rowId = new Guid(id.GetBytes(i), bigEndian: true);
            yield return new User
            {
                Id = rowId,
                Name = name.GetString(i),
                Patronymic = patronymic.GetString(i),
                Surname = surname.GetString(i),
                CreatedAt = createdAt(ToPostgresMicros(created.Values[i]), rowId),
                IsActive = isActive.GetValue(i) == true,
            };
        }
    }

    public static long ToArrowMicros(long postgresMicros) =>
        postgresMicros is long.MaxValue or long.MinValue ? postgresMicros : checked(postgresMicros + PostgresEpochUnixMicros);

    public static long ToPostgresMicros(long arrowMicros) =>
        arrowMicros is long.MaxValue or long.MinValue ? arrowMicros : checked(arrowMicros - PostgresEpochUnixMicros);

    /// <summary>The uuid column's bytes, whether the reader resolved the arrow.uuid extension (a registry knows it) or left its storage.</summary>
    private static FixedSizeBinaryArray Storage(IArrowArray column) => column is GuidArray guids ? guids.StorageArray : (FixedSizeBinaryArray)column;

    private static string Describe(Schema schema) => string.Join(", ", schema.FieldsList.Select(f => $"{f.Name} {TypeName(f.DataType)}{(f.IsNullable ? " null" : "")}"));

    private static string TypeName(IArrowType type) => type switch
    {
        GuidType => "fixed_size_binary[16]",
        FixedSizeBinaryType fixedSize => $"fixed_size_binary[{fixedSize.ByteWidth}]",
        TimestampType timestamp => $"timestamp[{timestamp.Unit}{(string.IsNullOrEmpty(timestamp.Timezone) ? "" : ", " + timestamp.Timezone)}]",
        _ => type.Name,
    };
}
