using System.Diagnostics;
using System.Threading.Channels;
using Npgsql;
using NpgsqlTypes;
using SomeService.Fetch;
using SomeService.Sync;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>
/// One table kept current by NpgsqlReplication: reads the source's stream (a first copy when the target has no LSN for
/// the slot, then whole transactions), applies them in batched target transactions that store the LSN beside the rows,
/// and acknowledges each stored LSN to SyncDataSource, which confirms only that to PostgreSQL. A broken stream (the
/// source or its database restarting) is reopened from the stored LSN; any other failure stops the follower, named.
/// </summary>
internal sealed class Follower(SyncTable table, string slot, string? publication, int batchSize, NpgsqlDataSource target, SourceClient client, SyncOptions options,
    SyncMetrics metrics, ILogger logger, CancellationToken serviceStopping)
{
    /// <summary>Frames read ahead of the writer: enough to fill a batch while the previous one commits.</summary>
    private const int ReadAhead = 10_000;

    private readonly CancellationTokenSource _stop = CancellationTokenSource.CreateLinkedTokenSource(serviceStopping);
    private readonly Lock _lock = new();
    private FollowStatus _status = new(table.Name, slot, FollowStatus.Copying, null, null, 0, 0, 0, null, null);
    private Task _running = Task.CompletedTask;

    public FollowStatus Status
    {
        get { lock (_lock) { return _status; } }
    }

    public bool IsRunning => !_running.IsCompleted;

    public string Slot => slot;

    /// <summary>Where each applied transaction's lag went (GET /follow/{table}/stages).</summary>
    public FollowStageLog Stages { get; } = new(table.Name, metrics);

    public void Start() => _running = Task.Run(() => RunAsync(_stop.Token));

    public async Task<FollowStatus> StopAsync()
    {
        await _stop.CancelAsync();
        await _running;
        return Status;
    }

    private async Task RunAsync(CancellationToken ct)
    {
        while (true)
        {
            try
            {
                await FollowAsync(ct);
            }
            catch (OperationCanceledException) when (ct.IsCancellationRequested)
            {
                Update(s => s with { State = FollowStatus.Stopped });
                return;
            }
            catch (SourceStreamException ex) when (ex.InnerException is IOException or HttpRequestException or NpgsqlException or OperationCanceledException)
            {
                // The stream broke (the source or its database went away): reopen it from the LSN the target stored.
                logger.LogWarning(ex, "The replication stream of {Table} broke; reopening it", table.Name);
                Update(s => s with { Error = ex.Message });
                await Task.Delay(TimeSpan.FromSeconds(1), ct).ContinueWith(_ => { }, TaskScheduler.Default);
            }
            catch (Exception ex)
            {
                logger.LogError(ex, "Following {Table} failed", table.Name);
                Update(s => s with { State = FollowStatus.Failed, Error = ex.Message });
                return;
            }
        }
    }

    private async Task FollowAsync(CancellationToken ct)
    {
        await using var connection = await target.OpenConnectionAsync(ct);
        var applier = new ChangeApplier(table, slot, options.DatabaseCommandTimeoutSeconds);
        var keyPositions = await applier.PrepareAsync(connection, ct);
        await applier.CreateStagingAsync(connection, ct);
        var from = await applier.ReadLsnAsync(connection, ct);
        var frames = Channel.CreateBounded<ChangeFrame>(new BoundedChannelOptions(ReadAhead) { SingleReader = true, SingleWriter = true });
        using var reading = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var pump = PumpAsync(frames.Writer, ReplicationStream.ReadFramesAsync(client, table, slot, publication, from, reading.Token), reading.Token);
        await using var acknowledger = new Acknowledger(AcknowledgeAsync, reading.Token);
        try
        {
            if (from is null)
            {
                Update(s => s with { State = FollowStatus.Copying });
                await CopyAsync(frames.Reader, connection, applier, acknowledger, ct);
            }

            Update(s => s with { State = FollowStatus.Following, AppliedLsn = s.AppliedLsn ?? from });
            await applier.CommitAsynchronouslyAsync(connection, ct);
            await ApplyAsync(frames.Reader, connection, applier, keyPositions, new FlushGate(), acknowledger, ct);
        }
        catch (ChannelClosedException closed) when (closed.InnerException is { } inner)
        {
            throw inner is SourceStreamException ? inner : new SourceStreamException(inner.Message, inner);
        }
        finally
        {
            await reading.CancelAsync();
            await pump;
        }
    }

    /// <summary>
    /// The stream's frames into the channel until it ends or <paramref name="ct"/> is cancelled. The write takes the token
    /// too: once the applier stops reading, a full channel would otherwise hold the pump, and the follower's stop, forever.
    /// </summary>
    internal static async Task PumpAsync(ChannelWriter<ChangeFrame> writer, IAsyncEnumerable<ChangeFrame> frames, CancellationToken ct)
    {
        try
        {
            await foreach (var frame in frames)
            {
                await writer.WriteAsync(frame, ct);
            }

            writer.TryComplete();
        }
        catch (Exception ex)
        {
            writer.TryComplete(ex);
        }
    }

    /// <summary>The first copy, in one target transaction with the slot's consistent point; then acknowledged.</summary>
    private async Task CopyAsync(ChannelReader<ChangeFrame> frames, NpgsqlConnection connection, ChangeApplier applier, Acknowledger acknowledger, CancellationToken ct)
    {
        string? consistentPoint = null;
        async IAsyncEnumerable<string?[]> Rows()
        {
            while (true)
            {
                var frame = await frames.ReadAsync(ct);
                if (frame.Op == ChangeFrame.Copied)
                {
                    consistentPoint = frame.Lsn;
                    yield break;
                }

                yield return frame.Op == ChangeFrame.Copy
                    ? frame.Values!
                    : throw new InvalidOperationException($"A '{frame.Op}' frame came before the first copy ended.");
            }
        }

        // The target's transaction begins only once the source has sent a frame, i.e. made its slot: creating a slot
        // waits for every transaction open in the source's cluster, and on one host the target shares that cluster.
        await frames.WaitToReadAsync(ct);
        var copied = await applier.CopyAsync(connection, Rows(), () => consistentPoint!, ct);
        Update(s => s with { RowsCopied = copied, AppliedLsn = consistentPoint });
        acknowledger.Release(consistentPoint!);
    }

    /// <summary>Batches of whole transactions (<see cref="ChangeBatches"/>), each committed, then the next.</summary>
    private async Task ApplyAsync(ChannelReader<ChangeFrame> frames, NpgsqlConnection connection, ChangeApplier applier, int[] keyPositions, FlushGate gate, Acknowledger acknowledger, CancellationToken ct)
    {
        var batches = new ChangeBatches(frames, keyPositions, batchSize, ChangeBatches.GatherWait);
        while (true)
        {
            // Nothing more came for a while: the walwriter has flushed the last commits by now; acknowledge them.
            var batch = await batches.NextAsync(() => gate.HasPending, c => ReleaseAsync(gate, connection, applier, acknowledger, c), ct);
            await CommitAsync(batch, connection, applier, gate, acknowledger, ct);
        }
    }

    private async Task CommitAsync(ChangeBatch batch, NpgsqlConnection connection, ChangeApplier applier, FlushGate gate, Acknowledger acknowledger, CancellationToken ct)
    {
        var applied = batch.Changes > 0 ? await ApplyBatchAsync(batch, connection, applier, ct) : null;

        // The positions read before this batch wrote release what committed before it (handed to the acknowledger: the next
        // batch does not wait for the request); then this batch waits its turn.
        // A batch of heartbeats alone (or of transactions without this table's changes) writes nothing: the LSN stored
        // stays behind, and a restart resumes from it, which the slot, confirmed further, skips past.
        var acknowledging = Stopwatch.GetTimestamp();
        if (applied is { } before && gate.Observe(before.Written, before.Flushed) is { } lsn)
        {
            acknowledger.Release(lsn);
        }

        gate.Committed(batch.Lsn!);
        if (applied is { } times)
        {
            Stages.Add(batch, times.Began, times.Committed, Stopwatch.GetElapsedTime(acknowledging));
        }
    }

    /// <summary>An idle follower: the target's WAL positions now, after every commit, release what it flushed.</summary>
    private async Task ReleaseAsync(FlushGate gate, NpgsqlConnection connection, ChangeApplier applier, Acknowledger acknowledger, CancellationToken ct)
    {
        var (written, flushed) = await applier.WalAsync(connection, ct);
        if (gate.Observe(written, flushed) is { } lsn)
        {
            acknowledger.Release(lsn);
        }
    }

    private async Task<ChangeApplier.Applied?> ApplyBatchAsync(ChangeBatch batch, NpgsqlConnection connection, ChangeApplier applier, CancellationToken ct)
    {
        var applied = await applier.ApplyAsync(connection, batch, ct);
        var lag = batch.LastCommit is { } committed ? applied.Committed - committed : (TimeSpan?)null;
        metrics.Followed(table.Name, batch.Changes, NpgsqlLogSequenceNumber.Parse(batch.Lsn!), lag);
        Update(s => s with
        {
            AppliedLsn = batch.Lsn, LastSourceCommit = batch.LastCommit, ChangesApplied = s.ChangesApplied + batch.Changes,
            TransactionsApplied = s.TransactionsApplied + batch.Transactions, LagMs = lag?.TotalMilliseconds, Error = null,
        });
        return applied;
    }

    private async Task AcknowledgeAsync(string lsn, CancellationToken ct)
    {
        try
        {
            await client.SendReplicationAsync(HttpMethod.Post,
                SourceRoutes.InTable(ReplicationRoutes.Ack, table.Name) + $"?{ReplicationRoutes.Slot}={slot}&lsn={Uri.EscapeDataString(lsn)}", ct);
        }
        catch (Exception ex) when (ex is SourceStreamException or HttpRequestException)
        {
            // The stream ended meanwhile: the target holds the LSN, and the next stream starts from it.
            logger.LogInformation("The acknowledgement of {Lsn} was refused: {Reason}", lsn, ex.Message);
        }
    }

    private void Update(Func<FollowStatus, FollowStatus> change)
    {
        lock (_lock)
        {
            _status = change(_status);
        }
    }
}
