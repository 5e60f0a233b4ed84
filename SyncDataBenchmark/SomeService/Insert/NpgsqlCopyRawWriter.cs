using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyRaw: relays the source's binary COPY body byte for byte into COPY FROM STDIN, parsing nothing.
/// Npgsql's raw COPY stream completes (commits the COPY) on Dispose, so any failure must Cancel it first; the
/// run's transaction and its verification before commit guard the rest.
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopyRaw", CopyBytes = true)]
public sealed class NpgsqlCopyRawWriter : ICopyBytesWriter
{
    public async Task<long?> WriteAsync(Stream binaryCopy, WriteTarget target, CancellationToken ct)
    {
        var connection = target.Connection;
        await using var copy = await connection.BeginRawBinaryCopyAsync(UsersTable.CopyInBinary, ct);
        try
        {
            await binaryCopy.CopyToAsync(copy, ct);
        }
        catch
        {
            // Cancel so Dispose does not complete a partial COPY; if the connection is already gone, so is the COPY.
            if (!connection.FullState.HasFlag(System.Data.ConnectionState.Broken))
            {
                await copy.CancelAsync();
            }

            throw;
        }

        return null;
    }
}
