using Apache.Arrow;
using Npgsql;
using SyncData.Arrow;
using SyncData.Postgres;

namespace SyncDataSource.Tables;

/// <summary>users for ArrowStream: created_at read as Npgsql's raw int64 (PostgreSQL's microseconds, ±infinity as int64 max/min), so no DateTime is in the way.</summary>
public sealed class UsersArrowRows : ArrowSourceRows
{
    /// <summary>
    /// The table, refusing row by row a created_at Arrow cannot carry: the value is replaced by a cast that fails with a
    /// message naming the row, the column and the value (as SendableDbContext does for DateTime).
    /// </summary>
    private const string GuardedUsers = $"""
        select id, name, patronymic, surname,
               case when created_at <= timestamp '{ArrowFormat.LastCarriedTimestamp}' or created_at = timestamp 'infinity' then created_at
                    else ('row ' || id || ': created_at = ' || created_at || ' {ArrowFormat.Refusal} timestamp[us] (Unix epoch): after {ArrowFormat.LastCarriedTimestamp} it overflows int64 or meets the value that means infinity')::timestamp end as created_at,
               is_active
        from users
        """;

    private readonly UsersArrow _rows = new();

    public override string Query => GuardedUsers;

    public override Schema Schema => UsersArrow.Schema;

    public override int Count => _rows.Count;

    public override void Append(NpgsqlDataReader row) =>
        _rows.Append(row.GetGuid(0), row.GetString(1), row.GetString(2), row.GetString(3), row.GetFieldValue<long>(4), row.GetBoolean(5));

    public override RecordBatch Build() => _rows.Build();
}
