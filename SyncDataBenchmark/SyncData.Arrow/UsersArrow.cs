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
/// <see cref="ArrowFormat.PostgresEpochUnixMicros"/>, exactly. ±infinity, which Arrow has no word for, travel as int64 max and min
/// (the field's metadata says so to any other reader); the finite values that shift would overflow or collide with them
/// (after 294247-01-10 04:00:54.775806, the last 30 of PostgreSQL's years) are refused by the source, by name.
/// </summary>
public sealed class UsersArrow
{
    private static readonly TimestampType CreatedAtType = new(TimeUnit.Microsecond, (string?)null);

    public static Schema Schema { get; } = new Schema.Builder()
        .Field(new Field("id", GuidType.Default, nullable: false))
        .Field(new Field("name", StringType.Default, nullable: false))
        .Field(new Field("patronymic", StringType.Default, nullable: false))
        .Field(new Field("surname", StringType.Default, nullable: false))
        .Field(new Field("created_at", CreatedAtType, nullable: false,
            [ArrowFormat.TimestampInfinity]))
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
        _createdAt.Append(ArrowFormat.ToArrowMicros(createdAtPostgresMicros));
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
    public static string? Mismatch(Schema received) => ArrowFormat.Mismatch(Schema, received);

    /// <summary>
    /// Each row of <paramref name="batch"/> (checked against <see cref="Mismatch"/>) as a <see cref="User"/>;
    /// <paramref name="createdAt"/> turns PostgreSQL's microseconds into a DateTime or refuses the row by name.
    /// </summary>
    public static IEnumerable<User> Rows(RecordBatch batch, Func<long, Guid, DateTime> createdAt)
    {
        var id = ArrowFormat.Storage(batch.Column(0));
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
                CreatedAt = createdAt(ArrowFormat.ToPostgresMicros(created.Values[i]), rowId),
                IsActive = isActive.GetValue(i) == true,
            };
        }
    }
}
