using Npgsql;
using SomeService.Fetch;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyRaw: relays the source's binary COPY body byte for byte into COPY FROM STDIN, parsing nothing.
/// Npgsql's raw COPY stream completes (commits the COPY) on Dispose, so any failure must Cancel it first; the
/// run's transaction and its verification before commit guard the rest.
/// </summary>
public sealed class NpgsqlCopyRawWriter : IUserWriter
{
    public bool UsesBatches => false;

    public async Task<long?> WriteAsync(IUserSource source, SyncRequest request, NpgsqlConnection connection, NpgsqlTransaction transaction, CancellationToken ct)
    {
        if (source is not IRawCopySource raw)
        {
            throw new InvalidOperationException(Approaches.Incompatibility(request.Fetch, request.Insert));
        }

        await using var body = await raw.OpenCopyStreamAsync(ct);
        await using var copy = await connection.BeginRawBinaryCopyAsync(UsersTable.CopyInBinary, ct);
        try
        {
            await body.CopyToAsync(copy, ct);
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
