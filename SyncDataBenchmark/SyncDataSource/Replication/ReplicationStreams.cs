using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using Npgsql;
using Npgsql.Replication;
using Npgsql.Replication.PgOutput;
using NpgsqlTypes;
using SyncData.Postgres;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SyncDataSource.Replication;

/// <summary>
/// NpgsqlReplication's streams at the source, one per slot: the stream itself (a first copy in the slot's exported
/// snapshot when the target has nothing, then the decoded changes), acknowledgements, and the slot's removal.
/// </summary>
public sealed class ReplicationStreams(NpgsqlDataSource source, IConfiguration configuration, IOptions<ReplicationOptions> options,
    IHostApplicationLifetime lifetime, ILogger<ReplicationStreams> logger)
{
    private readonly ConcurrentDictionary<string, ReplicationSession> _sessions = new();
    private readonly SemaphoreSlim _takeOver = new(1, 1);

    // The replication connection needs the configured string itself (a data source hides its password).
    private string ConnectionString => configuration.GetConnectionString("Source")!;

    /// <summary>
    /// GET {table}/replication?slot=&amp;from=: the stream, as newline-delimited <see cref="ChangeFrame"/>s. Without
    /// from= the slot and publication are made anew and a first copy is sent; with it, the slot's changes after that LSN.
    /// A failure after the response began is sent as the last frame (the status is 200 already).
    /// </summary>
    internal async Task<IResult> ServeAsync(SyncTable table, string? slot, string? from, HttpContext http, CancellationToken ct, string? publication = null)
    {
        slot ??= ReplicationRoutes.DefaultSlot(table.Name);
        NpgsqlLogSequenceNumber? start = null;
        if (from is not null && NpgsqlLogSequenceNumber.TryParse(from, out var parsed))
        {
            start = parsed;
        }

        if (!ReplicationRoutes.IsSlotName(slot) || (from is not null && start is null) || (publication is not null && (!ReplicationRoutes.IsSlotName(publication) || publication == slot)))
        {
            return TypedResults.Problem($"slot must be a PostgreSQL slot name (a-z, 0-9, _), from an LSN (X/X), publication (if given) a name of the same letters other than the slot's; " +
                                        $"got slot '{slot}', from '{from}', publication '{publication}'.", statusCode: 400);
        }

        using var session = await TakeOverAsync(slot, ct);
        var frames = new FrameWriter(http.Response);
        try
        {
            http.Response.ContentType = "application/x-ndjson";
            await http.Response.StartAsync(session.Stopping.Token);
            await StreamAsync(table, session, publication, start, frames, session.Stopping.Token);
        }
        catch (Exception ex) when (!session.Stopping.IsCancellationRequested)
        {
            logger.LogError(ex, "The replication stream of {Slot} failed", slot);
            // The status is 200 already: the failure is the stream's last frame, and the consumer treats a stream that ends
            // without one as broken too (aborting the connection here could drop the frame before it is read).
            await frames.TryWriteFailureAsync(Messages(ex), PostgresPool.IsDatabaseUnreachable(ex));
        }
        catch (Exception ex) when (session.Stopping.IsCancellationRequested)
        {
            // The consumer went away, a new stream took the slot over, or the service stops: nobody to tell.
            logger.LogDebug(ex, "The replication stream of {Slot} stopped", slot);
        }
        finally
        {
            _sessions.TryRemove(new(slot, session));
            session.MarkEnded();
        }

        return TypedResults.Empty;
    }

    /// <summary>The exception's message and its inner ones' (Npgsql's own often says only "Exception while reading from stream").</summary>
    private static string Messages(Exception ex)
    {
        var messages = new List<string>();
        for (Exception? e = ex; e is not null; e = e.InnerException)
        {
            messages.Add(e.Message);
        }

        return string.Join(": ", messages);
    }

    /// <summary>POST {table}/replication/ack?slot=&amp;lsn=: confirms <paramref name="lsn"/> to PostgreSQL; 409 when no stream reads the slot.</summary>
    internal async Task<IResult> AcknowledgeAsync(string? slot, string? lsn, CancellationToken ct)
    {
        if (slot is null || lsn is null || !NpgsqlLogSequenceNumber.TryParse(lsn, out var confirmed))
        {
            return TypedResults.Problem("slot= and lsn= (X/X) are required.", statusCode: 400);
        }

        if (!_sessions.TryGetValue(slot, out var session))
        {
            return TypedResults.Problem($"No stream reads the slot {slot}: the next stream starts from the target's stored LSN.", statusCode: 409);
        }

        try
        {
            await session.ConfirmAsync(confirmed, ct);
            return TypedResults.NoContent();
        }
        // NullReferenceException: Npgsql's status update on a stream whose enumerator has just failed (its feedback timers
        // cleared before the session could let go of the connection).
        catch (Exception ex) when (ex is ObjectDisposedException or NpgsqlException or InvalidOperationException or NullReferenceException ||
                                   (ex is OperationCanceledException && session.Stopping.IsCancellationRequested))
        {
            return TypedResults.Problem($"The stream of {slot} ended while confirming: {ex.Message}", statusCode: 409);
        }
    }

    /// <summary>DELETE {table}/replication?slot=: ends the slot's stream, if any, then drops the slot and its publication.</summary>
    internal async Task<IResult> DropAsync(string? slot, CancellationToken ct)
    {
        if (!ReplicationRoutes.IsSlotName(slot))
        {
            return TypedResults.Problem("slot= must name a slot.", statusCode: 400);
        }

        await StopAsync(slot!);
        await ReplicationSql.DropAsync(source, slot!, ct);
        return TypedResults.NoContent();
    }

    /// <summary>A new stream of <paramref name="slot"/>, once any earlier one has let go of it (a slot has one reader).</summary>
    private async Task<ReplicationSession> TakeOverAsync(string slot, CancellationToken ct)
    {
        await _takeOver.WaitAsync(ct);
        try
        {
            await StopAsync(slot);
            var session = new ReplicationSession(slot, ct, lifetime.ApplicationStopping);
            _sessions[slot] = session;
            return session;
        }
        finally
        {
            _takeOver.Release();
        }
    }

    private async Task StopAsync(string slot)
    {
        if (_sessions.TryGetValue(slot, out var earlier))
        {
            await earlier.Stopping.CancelAsync();
            await earlier.Ended.WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    /// <param name="publication">A publication the source's owner made (only the slot is created), or null: one of the slot's name, made here.</param>
    private async Task StreamAsync(SyncTable table, ReplicationSession session, string? publication, NpgsqlLogSequenceNumber? from, FrameWriter frames, CancellationToken ct)
    {
        // A server that cannot decode fails the stream naming the setting (a Failed frame: the follower reports failed);
        // the slot's own error, SQLSTATE 55000, counts as transient and had the follower retry for ever. A database that
        // cannot be reached for the check is a broken stream as before (retried).
        if (await ReplicationSql.WhyNotDecodableAsync(source, ct) is { } why)
        {
            throw new InvalidOperationException(why);
        }

        await using var replication = new LogicalReplicationConnection(ConnectionString);
        await replication.Open(ct);
        PgOutputReplicationSlot slot;
        if (from is { } resume)
        {
            slot = new PgOutputReplicationSlot(session.Slot);
        }
        else
        {
            slot = await CreateAndCopyAsync(table, session.Slot, publication, replication, frames, ct);
            resume = slot.ConsistentPoint;
        }

        using var heartbeats = new HeartbeatLoop(source, TimeSpan.FromSeconds(options.Value.HeartbeatSeconds), logger, ct);
        var queue = new FrameQueue(frames, ct);
        try
        {
            await DecodeAsync(table, session, publication ?? session.Slot, replication, slot, resume, queue, ct);
        }
        catch
        {
            // The failure frame comes after every frame handed over, and only once nothing else writes the response.
            await queue.AbandonAsync();
            throw;
        }

        await queue.DrainAsync();
    }

    /// <summary>The slot's messages from <paramref name="resume"/>, decoded into <paramref name="queue"/> until the stream ends or fails.</summary>
    private static async Task DecodeAsync(SyncTable table, ReplicationSession session, string publication, LogicalReplicationConnection replication, PgOutputReplicationSlot slot,
        NpgsqlLogSequenceNumber resume, FrameQueue queue, CancellationToken ct)
    {
        var decoder = new ChangeDecoder(table, queue);
        var streamOptions = new PgOutputReplicationOptions(publication, PgOutputProtocolVersion.V1, binary: false, messages: true);
        // The session lets go of the connection before Npgsql's enumerator ends (that clears its feedback timers).
        await using var messages = replication.StartReplication(slot, streamOptions, ct, resume).GetAsyncEnumerator(ct);
        try
        {
            while (await messages.MoveNextAsync())
            {
                // Confirmed on only once a message came: before START_REPLICATION has been answered, Npgsql's status update
                // writes into the command's buffer and, its feedback timer not yet made, fails (NullReferenceException)
                // without releasing its feedback lock, so every later confirmation of the stream waits forever.
                session.Attach(replication);
                await decoder.WriteAsync(messages.Current, ct);
            }
        }
        finally
        {
            await session.DetachAsync();
        }
    }

    /// <summary>
    /// The slot made anew with an exported snapshot, and the first copy sent from it while the replication connection
    /// stays idle (its next command would end the snapshot): the copy holds exactly the commits before the consistent
    /// point, the stream every commit after it.
    /// </summary>
    private async Task<PgOutputReplicationSlot> CreateAndCopyAsync(SyncTable table, string name, string? publication, LogicalReplicationConnection replication, FrameWriter frames, CancellationToken ct)
    {
        await ReplicationSql.DropAsync(source, name, ct);
        if (publication is null)
        {
            await ReplicationSql.RecreatePublicationAsync(source, name, table, ct);
        }

        var slot = await replication.CreatePgOutputReplicationSlot(name, temporarySlot: false, LogicalSlotSnapshotInitMode.Export, cancellationToken: ct);
        await foreach (var row in ReplicationSql.ReadCopyAsync(source, table, slot.SnapshotName!, ct))
        {
            await frames.WriteAsync(new ChangeFrame(ChangeFrame.Copy, row), ct);
        }

        await frames.WriteAsync(new ChangeFrame(ChangeFrame.Copied, Lsn: slot.ConsistentPoint.ToString()), ct);
        await frames.FlushAsync(ct);
        return slot;
    }
}
