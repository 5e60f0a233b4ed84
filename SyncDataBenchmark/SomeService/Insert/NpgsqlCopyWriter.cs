using Microsoft.Extensions.Options;
using Npgsql;
using NpgsqlTypes;
using SomeService.Fetch;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopy: one COPY FROM STDIN (FORMAT binary) through Npgsql's binary importer, each row written as it
/// arrives. Complete() is called only after the last row; an importer disposed without it rolls the COPY back.
/// </summary>
public sealed class NpgsqlCopyWriter(IOptions<SyncOptions> options) : IUserWriter
{
    public bool UsesBatches => false;

    public async Task<long?> WriteAsync(IUserSource source, SyncRequest request, NpgsqlConnection connection, NpgsqlTransaction transaction, CancellationToken ct)
    {
        await using var importer = await connection.BeginBinaryImportAsync(UsersTable.CopyInBinary, ct);
        importer.Timeout = TimeSpan.FromSeconds(options.Value.DatabaseCommandTimeoutSeconds);
        await foreach (var user in source.ReadAsync(request, ct))
        {
            await importer.StartRowAsync(ct);
            await importer.WriteAsync(user.Id, NpgsqlDbType.Uuid, ct);
            await importer.WriteAsync(user.Name, NpgsqlDbType.Text, ct);
            await importer.WriteAsync(user.Patronymic, NpgsqlDbType.Text, ct);
            await importer.WriteAsync(user.Surname, NpgsqlDbType.Text, ct);
            await importer.WriteAsync(user.CreatedAt, NpgsqlDbType.Timestamp, ct);
            await importer.WriteAsync(user.IsActive, NpgsqlDbType.Boolean, ct);
        }

        return (long)await importer.CompleteAsync(ct);
    }
}
