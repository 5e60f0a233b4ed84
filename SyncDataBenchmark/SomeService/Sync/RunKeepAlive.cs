using SomeService.Fetch;

namespace SomeService.Sync;

/// <summary>
/// While a run works, tells the source every <see cref="SyncOptions.SourceKeepAlive"/> that it is still at work, so the
/// run's snapshot does not end idle during a long pause between the run's requests (a writer that buffers every row
/// before writing, a target waiting on a lock). A run shorter than the interval sends nothing. A failed call is logged,
/// not fatal: the run's next request says whether its snapshot ended.
/// </summary>
internal sealed class RunKeepAlive : IAsyncDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _loop;

    public RunKeepAlive(SourceClient client, Guid run, TimeSpan every, ILogger logger) => _loop = LoopAsync(client, run, every, logger);

    private async Task LoopAsync(SourceClient client, Guid run, TimeSpan every, ILogger logger)
    {
        try
        {
            using var timer = new PeriodicTimer(every);
            while (await timer.WaitForNextTickAsync(_stop.Token))
            {
                await client.KeepRunAliveAsync(run, _stop.Token);
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
            // The run is over.
        }
        catch (Exception ex) when (ex is SourceStreamException or HttpRequestException or OperationCanceledException)
        {
            logger.LogWarning("Run {Run}: telling SyncDataSource the run is still at work failed ({Why}); its next request will say whether its snapshot ended", run, ex.Message);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _loop;
        _stop.Dispose();
    }
}
