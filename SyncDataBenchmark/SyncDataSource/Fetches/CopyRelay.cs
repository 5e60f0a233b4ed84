using Npgsql;
using SyncDataSource.Runs;

namespace SyncDataSource.Fetches;

/// <summary>The COPY fetches' body: a COPY … TO STDOUT (FORMAT binary) relayed to the response as bytes.</summary>
internal static class CopyRelay
{
    private const int RelayChunkBytes = 64 * 1024;

    /// <summary>
    /// Npgsql's raw COPY stream returns one CopyData message (one row) per read. Copied read for write, every row
    /// became its own HTTP chunk and flush. Filling each 64 KiB chunk before flushing keeps the bytes identical and
    /// the overhead per chunk, not per row. The reads are synchronous: the async read allocates a state machine per
    /// row, and a blocked read waits in the kernel without CPU (README, "Where the time goes"). A stalled server still
    /// ends in the copy's Timeout; a consumer that goes away fails the next flush.
    /// </summary>
    internal static async Task RelayInLargeChunksAsync(Stream copy, System.IO.Pipelines.PipeWriter body, CancellationToken ct)
    {
        while (true)
        {
            var chunk = body.GetMemory(RelayChunkBytes);
            var filled = copy.ReadAtLeast(chunk.Span, chunk.Length, throwOnEndOfStream: false);
            body.Advance(filled);
            if (filled < chunk.Length)
            {
                break;
            }

            await body.FlushAsync(ct);
        }

        await body.FlushAsync(ct);
    }

    /// <summary>NpgsqlCopy: <paramref name="copyOut"/> (a COPY … TO STDOUT (FORMAT binary)) relayed as bytes; no row is ever materialised here.</summary>
    internal static async Task RelayAsync(string copyOut, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct)
    {
        await using var lease = snapshots.Acquire(http.Request);
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        // A run's COPY reads its snapshot; the transaction is read only, so disposing it (a rollback) loses nothing.
        await using var transaction = lease is null ? null : await lease.BeginAsync(connection, ct);
        await using var copy = await connection.BeginRawBinaryCopyAsync(copyOut, ct);
        http.Response.ContentType = "application/octet-stream";
        try
        {
            await RelayInLargeChunksAsync(copy, http.Response.BodyWriter, ct);
        }
        catch (Exception ex) when (ex is not NpgsqlException)
        {
            // The consumer went away: stop PostgreSQL sending the rest instead of draining it; the exception then
            // aborts the response. Not after an NpgsqlException: the server ended the COPY with an error (or the
            // connection broke), so there is nothing to cancel, and cancelling would throw over the real error.
            await copy.CancelAsync();
            throw;
        }
    }
}
