using Grpc.Core;
using SyncData.Grpc;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>The users table on GrpcStream: its messages (<see cref="UsersMessages"/>) as <see cref="User"/> rows.</summary>
public sealed class UsersGrpcRows : GrpcStreamRows<User, UserBatch>
{
    public static readonly UsersGrpcRows Instance = new();

    protected override AsyncServerStreamingCall<UserBatch> Call(CallInvoker invoker, CallOptions options) =>
        new GrpcStreamSource.GrpcStreamSourceClient(invoker).Users(new UsersRequest(), options);

    protected override IEnumerable<User> RowsOf(UserBatch batch) => batch.Rows.Select(ToUser);

    /// <summary>
    /// The message as a <see cref="User"/>: ±infinity become DateTime.MaxValue/MinValue (as Npgsql's default mapping
    /// reads and writes them); a created_at with no DateTime Npgsql would write back as the same value (0001-01-01
    /// 00:00:00, years outside 1–9999) is refused by row and value.
    /// </summary>
    public static User ToUser(UserRow row)
    {
        var id = GrpcUuid.FromHalves(row.IdHigh, row.IdLow);
        return new User
        {
            Id = id,
            Name = row.Name,
            Patronymic = row.Patronymic,
            Surname = row.Surname,
            CreatedAt = PostgresTimestamp.ToDateTime(row.CreatedAt, DateTimeKind.Unspecified) ?? throw Unrepresentable(id, row.CreatedAt),
            IsActive = row.IsActive,
        };
    }

    private static SourceStreamException Unrepresentable(Guid id, long createdAt) =>
        new($"row {id}: created_at = {PostgresTimestamp.Format(createdAt)} cannot be carried by a User row: the gRPC message " +
            "holds it exactly, but .NET's DateTime holds years 1–9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity. " +
            "Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged.");
}
