using Npgsql.Replication;
using NpgsqlTypes;

namespace SyncDataSource.Replication;

/// <summary>
/// One stream reading a slot: how it is stopped (a new stream on the same slot takes over; a drop ends it), its
/// replication connection once streaming, and the LSN SomeService last acknowledged, the only one confirmed to PostgreSQL.
/// </summary>
internal sealed class ReplicationSession(string slot, CancellationToken requestAborted, CancellationToken serviceStopping) : IDisposable
{
    // Held while confirming and while letting go of the connection: Npgsql's replication connection, once disposed,
    // fails a status update with a NullReferenceException, so none may be in flight or begin after it is released.
    private readonly SemaphoreSlim _confirming = new(1, 1);
    private LogicalReplicationConnection? _connection;
    private NpgsqlLogSequenceNumber _confirmed;

    public string Slot { get; } = slot;

    /// <summary>Cancelled when the client goes away, the service stops, or another caller stops this stream.</summary>
    public CancellationTokenSource Stopping { get; } = CancellationTokenSource.CreateLinkedTokenSource(requestAborted, serviceStopping);

    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes once the stream has let go of the slot (its replication connection closed).</summary>
    public Task Ended => _ended.Task;

    /// <summary>
    /// The stream is reading the slot on <paramref name="connection"/> (a message has come): acknowledgements are
    /// confirmed on it from now on; one before that confirms nothing, and the next one confirms past it.
    /// </summary>
    public void Attach(LogicalReplicationConnection connection) => _connection ??= connection;

    /// <summary>Before the connection is disposed: waits for a confirmation in flight; later ones find no stream.</summary>
    public async Task DetachAsync()
    {
        await _confirming.WaitAsync();
        _connection = null;
        _confirming.Release();
    }

    /// <summary>
    /// SomeService committed everything up to <paramref name="lsn"/>: confirmed to PostgreSQL at once (never backwards),
    /// so the slot frees the WAL before it.
    /// </summary>
    /// <remarks>
    /// Abandoned when the stream stops: a confirmation waiting on Npgsql's feedback lock kept <see cref="DetachAsync"/>
    /// waiting, so the stream never ended and the slot's next stream failed with a 500 after 30 s (ReplicationAckTests).
    /// </remarks>
    public async Task ConfirmAsync(NpgsqlLogSequenceNumber lsn, CancellationToken ct)
    {
        using var either = CancellationTokenSource.CreateLinkedTokenSource(ct, Stopping.Token);
        await _confirming.WaitAsync(either.Token);
        try
        {
            if (lsn <= _confirmed || _connection is null)
            {
                return;
            }

            _confirmed = lsn;
            _connection.SetReplicationStatus(lsn);
            await _connection.SendStatusUpdate(either.Token);
        }
        finally
        {
            _confirming.Release();
        }
    }

    public void MarkEnded() => _ended.TrySetResult();

    public void Dispose() => Stopping.Dispose();
}
