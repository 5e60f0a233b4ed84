using SyncData.ServiceDefaults;

namespace SomeService.Sync;

/// <summary>Prepares the runs table at startup (best effort: a database that is down now is retried on first use).</summary>
public sealed class RunStoreInitializer(RunStore store, ILogger<RunStoreInitializer> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await store.EnsureReadyAsync(stoppingToken);
        }
        catch (Exception ex) when (PostgresPool.IsDatabaseUnreachable(ex))
        {
            logger.LogWarning(ex, "Runs table not ready yet; PostgreSQL unreachable. Will retry on first use.");
        }
    }
}
