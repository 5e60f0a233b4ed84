using NpgsqlTypes;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// Rows into one COPY FROM STDIN (FORMAT binary) through Npgsql's binary importer, each row written as it arrives;
/// shared by the writers that differ only in what happens around the COPY. Complete() is called only after the last
/// row: an importer disposed without it rolls the COPY back.
/// </summary>
internal static class BinaryImport
{
    /// <param name="copyCommand">A COPY … FROM STDIN (FORMAT binary …) of <see cref="UsersTable.Columns"/>, e.g. with FREEZE.</param>
    internal static async Task<long?> CopyInAsync(IAsyncEnumerable<User> rows, WriteTarget target, string copyCommand, CancellationToken ct)
    {
        await using var importer = await target.Connection.BeginBinaryImportAsync(copyCommand, ct);
        importer.Timeout = TimeSpan.FromSeconds(target.CommandTimeoutSeconds);
        await foreach (var user in rows.WithCancellation(ct))
        {
            // Synchronous writes: they only copy into Npgsql's buffer (a full buffer is sent blocking, bounded by
            // importer.Timeout); awaiting seven calls per row costs measurably more CPU (README, "Where the time goes").
            importer.StartRow();
            importer.Write(user.Id, NpgsqlDbType.Uuid);
            importer.Write(user.Name, NpgsqlDbType.Text);
            importer.Write(user.Patronymic, NpgsqlDbType.Text);
            importer.Write(user.Surname, NpgsqlDbType.Text);
            importer.Write(user.CreatedAt, NpgsqlDbType.Timestamp);
            importer.Write(user.IsActive, NpgsqlDbType.Boolean);
        }

        return (long)await importer.CompleteAsync(ct);
    }
}
