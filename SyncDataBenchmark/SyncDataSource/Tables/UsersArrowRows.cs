using Apache.Arrow;
using Npgsql;
using SyncData.Arrow;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>users for ArrowStream: created_at read as Npgsql's raw int64 (PostgreSQL's microseconds, ±infinity as int64 max/min), so no DateTime is in the way.</summary>
public sealed class UsersArrowRows : ArrowSourceRows
{
    /// <summary>The table, refusing row by row a created_at Arrow cannot carry (arrow-users.sql), as SendableDbContext does for DateTime.</summary>
    private static readonly string GuardedUsers = SendableDbContext.Embedded("arrow-users.sql")
        .Replace("{refusal}", ArrowFormat.Refusal, StringComparison.Ordinal)
        .Replace("{last}", ArrowFormat.LastCarriedTimestamp, StringComparison.Ordinal);

    private readonly UsersArrow _rows = new();

    public override string Query => GuardedUsers;

    public override Schema Schema => UsersArrow.Schema;

    public override int Count => _rows.Count;

    public override void Append(NpgsqlDataReader row) =>
        _rows.Append(row.GetGuid(0), row.GetString(1), row.GetString(2), row.GetString(3), row.GetFieldValue<long>(4), row.GetBoolean(5));

    public override RecordBatch Build() => _rows.Build();
}
