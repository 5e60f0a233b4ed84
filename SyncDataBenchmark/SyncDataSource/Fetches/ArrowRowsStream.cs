using Apache.Arrow.Ipc;
using Npgsql;
using SyncData.Arrow;
using SyncData.Shared;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>ArrowStream's body, whichever table's rows (<see cref="ArrowSourceRows"/>: written per table, or derived from a catalog's description).</summary>
internal static class ArrowRowsStream
{
    /// <summary>
    /// Rows per record batch: 16,384 is about 1 MiB of column buffers for these rows. Large enough that a batch's
    /// message header (a few hundred bytes of flatbuffer) and the per-batch calls vanish beside its data (61 batches for
    /// a million rows); small enough that the consumer has its first batch after 1/60 of a million-row table, so source,
    /// wire and writer overlap, and each side holds one batch (~1 MiB), not the table.
    /// </summary>
    internal const int BatchRows = 16_384;

    /// <summary>
    /// ArrowStream: the schema, a record batch per <see cref="BatchRows"/> rows read in the run's snapshot, the
    /// end-of-stream marker. If the database fails after the stream began, the stream still ends with the marker and
    /// then <see cref="SourceFailure.Marker"/> and the reason: no Arrow reader reads past the end-of-stream marker, so
    /// it cannot take the explanation for a batch, and the consumer, which requires the body to end right there, reads it.
    /// </summary>
    public static async Task WriteAsync(ArrowSourceRows rows, string table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct)
    {
        await using var lease = snapshots.Acquire(http.Request);
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        // A run's query reads its snapshot; the transaction is read only, so disposing it (a rollback) loses nothing.
        await using var transaction = lease is null ? null : await lease.BeginAsync(connection, ct);
        await using var command = new NpgsqlCommand(rows.Query, connection, transaction);
        await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SequentialAccess, ct);
        http.Response.ContentType = ArrowFormat.ContentType;
        using var writer = new ArrowStreamWriter(http.Response.Body, rows.Schema, leaveOpen: true);
        try
        {
            await writer.WriteStartAsync(ct);
            await WriteBatchesAsync(reader, rows, writer, ct);
            await writer.WriteEndAsync(ct);
        }
        catch (NpgsqlException ex) when (!ct.IsCancellationRequested)
        {
            // The database failed, not the consumer, which is still there to be told why.
            await writer.WriteEndAsync(ct);
            await http.Response.Body.WriteAsync(System.Text.Encoding.UTF8.GetBytes(SourceFailure.Marker + Why(ex, table) + "\n"), ct);
        }
        catch
        {
            // The consumer went away or was cancelled: stop PostgreSQL sending the rest; the exception aborts the response.
            command.Cancel();
            throw;
        }
    }

    /// <summary>
    /// Reads synchronously, as the COPY relay does: each row read only takes from Npgsql's buffer, and an async read per
    /// row would cost a state machine per row (README, "Where the time goes").
    /// </summary>
    private static async Task WriteBatchesAsync(NpgsqlDataReader reader, ArrowSourceRows rows, ArrowStreamWriter writer, CancellationToken ct)
    {
        while (reader.Read())
        {
            rows.Append(reader);
            if (rows.Count == BatchRows)
            {
                await WriteBatchAsync(writer, rows, ct);
            }
        }

        if (rows.Count > 0)
        {
            await WriteBatchAsync(writer, rows, ct);
        }
    }

    private static async Task WriteBatchAsync(ArrowStreamWriter writer, ArrowSourceRows rows, CancellationToken ct)
    {
        using var batch = rows.Build();
        await writer.WriteRecordBatchAsync(batch, ct);
    }

    /// <summary>
    /// The refusal's own words (row, column, value) when the guard refused a row (what Arrow cannot carry, or for a
    /// described table what its generated row class cannot hold), else what the database said.
    /// </summary>
    private static string Why(NpgsqlException ex, string table) =>
        ex is PostgresException pg && (pg.MessageText.Contains(ArrowFormat.Refusal, StringComparison.Ordinal) || pg.MessageText.Contains(SendableDbContext.Refusal, StringComparison.Ordinal))
            ? pg.MessageText[(pg.MessageText.IndexOf("\"row ", StringComparison.Ordinal) + 1)..].TrimEnd('"')
            : $"reading the {table} table failed: {string.Join(": ", Causes(ex))}";

    /// <summary>The exception's message and its causes' (Npgsql wraps a broken connection's own words in "Exception while reading from stream").</summary>
    private static IEnumerable<string> Causes(Exception ex)
    {
        for (var e = (Exception?)ex; e is not null; e = e.InnerException)
        {
            yield return e.Message;
        }
    }
}
