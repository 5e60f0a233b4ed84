using Npgsql;

namespace SyncDataSource.Replication;

/// <summary>
/// While a stream streams: a heartbeat message into the source's WAL every interval (ReplicationSql.EmitHeartbeatAsync),
/// which the stream decodes and passes on, so its slot advances even when its table is quiet.
/// </summary>
internal sealed class HeartbeatLoop : IDisposable
{
    private readonly CancellationTokenSource _stop;
    private readonly Task _loop;

    public HeartbeatLoop(NpgsqlDataSource source, TimeSpan interval, ILogger logger, CancellationToken ct)
    {
        _stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        _loop = RunAsync(source, interval, logger, _stop.Token);
    }

    private static async Task RunAsync(NpgsqlDataSource source, TimeSpan interval, ILogger logger, CancellationToken ct)
    {
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(ct))
            {
                try
                {
                    await ReplicationSql.EmitHeartbeatAsync(source, ct);
                }
                catch (NpgsqlException ex)
                {
                    // A missed heartbeat only delays the slot's advance; the stream itself reports a dead source.
                    logger.LogWarning(ex, "A replication heartbeat failed");
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    public void Dispose()
    {
        _stop.Cancel();
        _loop.Wait(TimeSpan.FromSeconds(5));
        _stop.Dispose();
    }
}
