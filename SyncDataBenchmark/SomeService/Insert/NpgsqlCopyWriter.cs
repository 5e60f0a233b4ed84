using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopy: one COPY FROM STDIN (FORMAT binary) through Npgsql's binary importer, each row written as it
/// arrives. Complete() is called only after the last row; an importer disposed without it rolls the COPY back.
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopy")]
public sealed class NpgsqlCopyWriter : IRowWriter
{
    public Task<long?> WriteAsync(IAsyncEnumerable<User> rows, WriteTarget target, CancellationToken ct) => BinaryImport.CopyInAsync(rows, target, UsersTable.CopyInBinary, ct);
}
