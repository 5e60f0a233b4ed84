using Apache.Arrow.Ipc;
using Npgsql;
using SyncData.Arrow;
using SyncData.Postgres;
using SyncData.Shared;
using SyncData.Shared.Fetches;
using SyncDataSource.Runs;

namespace SyncDataSource.Users;

public sealed class ArrowStreamEndpoint : IFetchEndpoint<ArrowStreamFetch>
{
    public Delegate Handler => Stream;

    /// <summary>
    /// Rows per record batch: 16,384 is about 1 MiB of column buffers for these rows. Large enough that a batch's
    /// message header (a few hundred bytes of flatbuffer) and the per-batch calls vanish beside its data (61 batches for
    /// a million rows); small enough that the consumer has its first batch after 1/60 of a million-row table, so source,
    /// wire and writer overlap, and each side holds one batch (~1 MiB), not the table.
    /// </summary>
    internal const int BatchRows = 16_384;

    private const string Refusal = $"cannot travel as an Arrow timestamp[us] (Unix epoch): after {UsersArrow.LastCarriedTimestamp} it overflows int64 or meets the value that means infinity";

    /// <summary>
    /// The table, refusing row by row a created_at Arrow cannot carry: the value is replaced by a cast that fails with a
    /// message naming the row, the column and the value (as SendableUsersDbContext does for DateTime). created_at is read
    /// as Npgsql's raw int64 (PostgreSQL's microseconds, ±infinity as int64 max/min), so no DateTime is in the way.
    /// </summary>
    private const string GuardedUsers = $"""
        select id, name, patronymic, surname,
               case when created_at <= timestamp '{UsersArrow.LastCarriedTimestamp}' or created_at = timestamp 'infinity' then created_at
                    else ('row ' || id || ': created_at = ' || created_at || ' {Refusal}')::timestamp end as created_at,
               is_active
        from {UsersTable.Name}
        """;

    /// <summary>
    /// ArrowStream: the schema, a record batch per <see cref="BatchRows"/> rows read in the run's snapshot, the
    /// end-of-stream marker. If the database fails after the stream began, the stream still ends with the marker and
    /// then <see cref="SourceFailure.Marker"/> and the reason: no Arrow reader reads past the end-of-stream marker, so
    /// it cannot take the explanation for a batch, and the consumer, which requires the body to end right there, reads it.
    /// </summary>
    internal static async Task Stream(HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct)
    {
        await using var lease = snapshots.Acquire(http.Request);
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        // A run's query reads its snapshot; the transaction is read only, so disposing it (a rollback) loses nothing.
        await using var transaction = lease is null ? null : await lease.BeginAsync(connection, ct);
        await using var command = new NpgsqlCommand(GuardedUsers, connection, transaction);
        await using var rows = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SequentialAccess, ct);
        http.Response.ContentType = UsersArrow.ContentType;
        using var writer = new ArrowStreamWriter(http.Response.Body, UsersArrow.Schema, leaveOpen: true);
        try
        {
            await writer.WriteStartAsync(ct);
            await WriteBatchesAsync(rows, writer, ct);
            await writer.WriteEndAsync(ct);
        }
        catch (NpgsqlException ex) when (!ct.IsCancellationRequested)
        {
            // The database failed, not the consumer, which is still there to be told why.
            await writer.WriteEndAsync(ct);
            await http.Response.Body.WriteAsync(System.Text.Encoding.UTF8.GetBytes(SourceFailure.Marker + Why(ex) + "\n"), ct);
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
    private static async Task WriteBatchesAsync(NpgsqlDataReader reader, ArrowStreamWriter writer, CancellationToken ct)
    {
        var rows = new UsersArrow();
        while (reader.Read())
        {
            rows.Append(reader.GetGuid(0), reader.GetString(1), reader.GetString(2), reader.GetString(3), reader.GetFieldValue<long>(4), reader.GetBoolean(5));
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

    private static async Task WriteBatchAsync(ArrowStreamWriter writer, UsersArrow rows, CancellationToken ct)
    {
        using var batch = rows.Build();
        await writer.WriteRecordBatchAsync(batch, ct);
    }

    /// <summary>The refusal's own words (row, column, value) when the guard refused a row, else what the database said.</summary>
    private static string Why(NpgsqlException ex) =>
        ex is PostgresException { SqlState: PostgresErrorCodes.InvalidDatetimeFormat } pg && pg.MessageText.Contains(Refusal, StringComparison.Ordinal)
            ? pg.MessageText[(pg.MessageText.IndexOf("\"row ", StringComparison.Ordinal) + 1)..].TrimEnd('"')
            : $"reading the users table failed: {string.Join(": ", Causes(ex))}";

    /// <summary>The exception's message and its causes' (Npgsql wraps a broken connection's own words in "Exception while reading from stream").</summary>
    private static IEnumerable<string> Causes(Exception ex)
    {
        for (var e = (Exception?)ex; e is not null; e = e.InnerException)
        {
            yield return e.Message;
        }
    }
}
