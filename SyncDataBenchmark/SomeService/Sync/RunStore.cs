using System.Text.Json;
using Npgsql;
using NpgsqlTypes;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>Runs live in SomeService's own database, so history survives restarts.</summary>
public sealed class RunStore(NpgsqlDataSource dataSource, ILogger<RunStore> logger)
{
    private volatile bool _ready;
    // One at a time: the initializer and a first trigger racing to create the table made PostgreSQL fail one of them
    // ("duplicate key value violates unique constraint pg_type_typname_nsp_index"), answered 500 (seen in MeasurementTests).
    private readonly SemaphoreSlim _creating = new(1, 1);

    /// <summary>
    /// Creates the runs table and marks runs left "running" by a previous process as interrupted: a run that was
    /// in progress when this process started can no longer finish.
    /// </summary>
    public async Task EnsureReadyAsync(CancellationToken ct)
    {
        if (_ready)
        {
            return;
        }

        await _creating.WaitAsync(ct);
        try
        {
            if (!_ready)
            {
                await CreateAsync(ct);
                _ready = true;
            }
        }
        finally
        {
            _creating.Release();
        }
    }

    private async Task CreateAsync(CancellationToken ct)
    {
        await using var batch = dataSource.CreateBatch();
        batch.BatchCommands.Add(new("""
            create table if not exists sync_runs (
                id         uuid primary key,
                started_at timestamptz not null,
                status     text not null,
                result     jsonb not null)
            """));
        batch.BatchCommands.Add(new("""
            update sync_runs
            set status = 'interrupted',
                result = result || jsonb_build_object('status', 'interrupted',
                                                      'error', 'SomeService stopped while this run was in progress.')
            where status = 'running'
            """));
        await batch.ExecuteNonQueryAsync(ct);
    }

    public async Task SaveAsync(RunResult run, CancellationToken ct)
    {
        await EnsureReadyAsync(ct);
        await using var command = dataSource.CreateCommand("""
            insert into sync_runs (id, started_at, status, result) values ($1, $2, $3, $4)
            on conflict (id) do update set status = excluded.status, result = excluded.result
            """);
        command.Parameters.Add(new() { Value = run.Id });
        command.Parameters.Add(new() { Value = run.StartedAt.UtcDateTime });
        command.Parameters.Add(new() { Value = run.Status });
        command.Parameters.Add(new() { Value = JsonSerializer.Serialize(run, SyncJsonContext.Default.RunResult), NpgsqlDbType = NpgsqlDbType.Jsonb });
        await command.ExecuteNonQueryAsync(ct);
        logger.LogInformation("Run {Id} {Fetch}x{Insert}: {Status} {Rows} rows in {DurationMs} ms {Error}",
            run.Id, run.Fetch, run.Insert, run.Status, run.Rows, run.DurationMs, run.Error);
    }

    /// <summary>
    /// Records a finished run, retrying until it is stored: the failure that ended the run (a terminated backend, a
    /// restarting or stopped server) often broke the database too, and a run must never stay "running" once the
    /// database is back. Only a process shutting down gives up, after a few tries; the next start marks such a
    /// run interrupted.
    /// </summary>
    public async Task SaveFinalAsync(RunResult run, CancellationToken stopping)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await SaveAsync(run, CancellationToken.None);
                return;
            }
            catch (Exception ex) when (PostgresPool.IsDatabaseUnreachable(ex)
                                       && !(stopping.IsCancellationRequested && attempt >= 5))
            {
                dataSource.ClearIfConnectionFailure(ex);
                logger.LogWarning("Saving run {Id} failed (attempt {Attempt}), retrying: {Message}", run.Id, attempt, ex.Message);
                await Task.Delay(TimeSpan.FromMilliseconds(Math.Min(200 * attempt, 2000)), CancellationToken.None);
            }
        }
    }

    public async Task<RunResult?> FindAsync(Guid id, CancellationToken ct)
    {
        await EnsureReadyAsync(ct);
        await using var command = dataSource.CreateCommand("select result::text from sync_runs where id = $1");
        command.Parameters.Add(new() { Value = id });
        return await command.ExecuteScalarAsync(ct) is string json
            ? JsonSerializer.Deserialize(json, SyncJsonContext.Default.RunResult)
            : null;
    }

    /// <summary>Newest first, without the per-sample series (ask for one run to get them).</summary>
    public async Task<List<RunResult>> ListAsync(int limit, CancellationToken ct)
    {
        await EnsureReadyAsync(ct);
        await using var command = dataSource.CreateCommand("""
            select (result #- '{someService,samples}' #- '{syncDataSource,samples}')::text
            from sync_runs order by started_at desc limit $1
            """);
        command.Parameters.Add(new() { Value = limit });
        var runs = new List<RunResult>();
        await using var reader = await command.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            runs.Add(JsonSerializer.Deserialize(reader.GetString(0), SyncJsonContext.Default.RunResult)!);
        }

        return runs;
    }
}
