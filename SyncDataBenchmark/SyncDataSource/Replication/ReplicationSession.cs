using Npgsql.Replication;
using NpgsqlTypes;

namespace SyncDataSource.Replication;

/// <summary>
/// One stream reading a slot: how it is stopped (a new stream on the same slot takes over; a drop ends it), its
/// replication connection once streaming, and the LSN SomeService last acknowledged, the only one confirmed to PostgreSQL.
/// </summary>
internal sealed class ReplicationSession(string slot, CancellationToken requestAborted, CancellationToken serviceStopping) : IDisposable
{
    private readonly Lock _lock = new();
    private NpgsqlLogSequenceNumber _confirmed;

    public string Slot { get; } = slot;

    /// <summary>Cancelled when the client goes away, the service stops, or another caller stops this stream.</summary>
    public CancellationTokenSource Stopping { get; } = CancellationTokenSource.CreateLinkedTokenSource(requestAborted, serviceStopping);

    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes once the stream has let go of the slot (its replication connection closed).</summary>
    public Task Ended => _ended.Task;

    public LogicalReplicationConnection? Connection { get; set; }

    /// <summary>
    /// SomeService committed everything up to <paramref name="lsn"/>: confirmed to PostgreSQL at once (never backwards),
    /// so the slot frees the WAL before it.
    /// </summary>
    public async Task ConfirmAsync(NpgsqlLogSequenceNumber lsn, CancellationToken ct)
    {
        LogicalReplicationConnection? connection;
        lock (_lock)
        {
            if (lsn <= _confirmed || Connection is null)
            {
                return;
            }

            _confirmed = lsn;
            connection = Connection;
            connection.SetReplicationStatus(lsn);
        }

        await connection.SendStatusUpdate(ct);
    }

    public void MarkEnded() => _ended.TrySetResult();

    public void Dispose() => Stopping.Dispose();
}
