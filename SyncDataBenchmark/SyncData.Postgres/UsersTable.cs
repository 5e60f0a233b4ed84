using SyncData.Shared;

namespace SyncData.Postgres;

/// <summary>SQL about the users table that both services must agree on, byte for byte.</summary>
public static class UsersTable
{
    public const string Name = "users";

    /// <summary>Column order of every COPY; the binary reader and writers follow it.</summary>
    public const string Columns = "id, name, patronymic, surname, created_at, is_active";

    public const string CopyOutBinary = $"COPY {Name} ({Columns}) TO STDOUT (FORMAT binary)";

    public const string CopyInBinary = $"COPY {Name} ({Columns}) FROM STDIN (FORMAT binary)";

    /// <summary>
    /// Row count and an order-independent content checksum: the sum of the first 64 bits of each row's md5 over the
    /// row's text form. Computed by PostgreSQL on both sides, so a lost, duplicated or altered row changes it whatever
    /// path the data took. The row constructor's text form quotes every field that needs it, so no value can move a
    /// field boundary; the timestamp enters as its epoch (exact to the microsecond, ±Infinity for ±infinity, negative
    /// before Christ), which unlike to_char cannot lose infinity or the era and does not depend on DateStyle.
    /// </summary>
    public const string RowChecksumExpression =
        "('x' || left(md5(row(id, name, patronymic, surname, extract(epoch from created_at), is_active)::text), 16))::bit(64)::bigint::numeric";

    public const string ChecksumSql = $"select count(*), coalesce(sum({RowChecksumExpression}), 0)::text from {Name}";
}
