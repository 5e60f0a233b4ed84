using System.Text.Json.Serialization.Metadata;
using Apache.Arrow;
using Npgsql;
using NpgsqlTypes;
using SomeService.Fetch;
using SyncData.Arrow;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Tables;

/// <summary>The users table's rows: keyed by uuid; six NOT NULL columns.</summary>
public sealed class UsersRowTable : RowTable<User>
{
    public static readonly UsersRowTable Instance = new();

    public override SyncTable Table => SyncTable.Users;

    public override JsonTypeInfo<User> Json => SyncJsonContext.Default.User;

    public override string KeyOf(User row) => row.Id.ToString();

    public override CopyRowDecoder<User> NewCopyDecoder() => new UsersCopyDecoder();

    public override IGrpcStreamRows<User> GrpcStream => UsersGrpcRows.Instance;

    public override string? ArrowMismatch(Schema received) => UsersArrow.Mismatch(received);

    public override IEnumerable<User> ArrowRows(RecordBatch batch) => UsersArrow.Rows(batch, UsersCopyDecoder.CreatedAt);

    public override ArrowCopyColumns ArrowCopy => ArrowCopyColumns.Users;

    public override void Write(NpgsqlBinaryImporter importer, User row)
    {
        // Synchronous writes: they only copy into Npgsql's buffer (a full buffer is sent blocking, bounded by the
        // importer's Timeout); awaiting seven calls per row costs measurably more CPU (README, "Where the time goes").
        importer.StartRow();
        importer.Write(row.Id, NpgsqlDbType.Uuid);
        importer.Write(row.Name, NpgsqlDbType.Text);
        importer.Write(row.Patronymic, NpgsqlDbType.Text);
        importer.Write(row.Surname, NpgsqlDbType.Text);
        importer.Write(row.CreatedAt, NpgsqlDbType.Timestamp);
        importer.Write(row.IsActive, NpgsqlDbType.Boolean);
    }
}
