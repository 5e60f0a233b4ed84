using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Insert;
using SomeService.Tables;
using SyncData.Measurement;
using SyncData.Postgres;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>
/// Runs one sync at a time: open this service's measurement window and begin the run at the source; in ONE transaction
/// (<see cref="SyncTransfer"/>) empty the target and write every row, or merge into it; verify count and checksum against
/// the source's (read in the run's snapshot) inside that transaction; store the watermark and commit only if they match;
/// end the run at the source, which answers its own figures.
/// </summary>
public sealed class SyncRunner(
    IServiceProvider services,
    NpgsqlDataSource target,
    RunStore store,
    RuntimeWindow runtimeWindow,
    SyncMetrics metrics,
    IOptions<SyncOptions> options,
    IHostApplicationLifetime lifetime,
    ILogger<SyncRunner> logger) : IHostedService
{
    private readonly RunGate _gate = new();
    private ActiveRun? _active;

    /// <summary><paramref name="Finished"/>: the run recorded; <paramref name="Execution"/> ends after it has ended at the source too.</summary>
    private sealed record ActiveRun(Guid Id, CancellationTokenSource Cancellation, Task Execution, Task Finished);

    /// <summary><paramref name="Completion"/>: the run as stored once it has finished.</summary>
    public sealed record Started(RunResult Run, Task<RunResult> Completion);

    /// <summary>Starts a run in the background, or returns null when one is already in progress.</summary>
    public async Task<Started?> TryStartAsync(SyncRequest request, CancellationToken ct)
    {
        // A run that is recorded and only ending at the source is not in progress: the next one waits for it (bounded
        // by the end request's own timeout) rather than being refused.
        var finished = new TaskCompletionSource<RunResult>(TaskCreationOptions.RunContinuationsAsynchronously);
        if (!await _gate.TryEnterAsync(finished.Task, options.Value.SourceIdleTimeout, ct))
        {
            return null;
        }

        try
        {
            var writer = services.GetRequiredKeyedService<ITableWriter>(request.Insert);
            var run = new RunResult
            {
                Id = Guid.CreateVersion7(),
                Fetch = request.Fetch.ToString(),
                Insert = request.Insert.ToString(),
                Table = request.Table.Name,
                PageSize = ApproachRegistry.Catalog[request.Fetch].Pages ? request.PageSize : null,
                BatchSize = ApproachRegistry.Catalog[request.Insert].Batches ? request.BatchSize : null,
                Compression = request.Compression,
                Status = RunStatus.Running,
                StartedAt = DateTimeOffset.UtcNow,
            };
            // The trigger's span and every span of the run below it (both services, both databases) carry the run's id.
            RunTelemetry.MarkRun(run.Id);
            await store.SaveAsync(run, ct);
            var cancellation = CancellationTokenSource.CreateLinkedTokenSource(lifetime.ApplicationStopping);
            var execution = Task.Run(() => ExecuteAsync(run, request, writer, finished, cancellation.Token), CancellationToken.None);
            _active = new ActiveRun(run.Id, cancellation, execution, finished.Task);
            _ = execution.ContinueWith(done =>
            {
                finished.TrySetException(done.Exception?.InnerExceptions ?? [new InvalidOperationException($"Run {run.Id} ended unrecorded.")]);
                _active = null;
                cancellation.Dispose();
                _gate.Leave();
            }, TaskScheduler.Default);
            return new Started(run, finished.Task);
        }
        catch
        {
            _gate.Leave();
            throw;
        }
    }

    /// <summary>Holds the gate for a --follow window (FollowWindow): no run starts until <see cref="Release"/>; false while a run is in progress.</summary>
    public bool TryHold() => _gate.TryHold();

    /// <summary>Releases the gate <see cref="TryHold"/> took.</summary>
    public void Release() => _gate.Leave();

    /// <summary>Cancels the run in progress if it has this id; its transaction is rolled back.</summary>
    public bool TryCancel(Guid id)
    {
        var active = _active;
        if (active is null || active.Id != id || active.Finished.IsCompleted)
        {
            return false;
        }

        active.Cancellation.Cancel();
        return true;
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>
    /// On shutdown (SIGTERM) the run in progress is cancelled, rolled back and recorded before the process exits;
    /// without this the host would exit first and leave the run "running".
    /// </summary>
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_active is { } active)
        {
            try
            {
                await active.Cancellation.CancelAsync();
            }
            catch (ObjectDisposedException)
            {
                // The run ended between reading _active and cancelling: its continuation already disposed the source.
            }

            await active.Execution.WaitAsync(cancellationToken).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }
    }

    private async Task ExecuteAsync(RunResult run, SyncRequest request, ITableWriter writer, TaskCompletionSource<RunResult> finished, CancellationToken ct)
    {
        metrics.Started(request);
        // Typed HttpClients are transient: one per run, so the handler rotation of IHttpClientFactory still works.
        var client = services.GetRequiredService<SourceClient>();
        var transfer = new SyncTransfer(services, target, metrics, options.Value, client, request, run.Id, writer);
        var result = await RunAsync(run, transfer, client, ct);
        // A failed run is recorded and answered first: its source may be what failed (frozen, gone), and waiting for
        // it would add its patience to the answer. Its source figures are not waited for; a run's are missing, not late.
        if (result.Status != RunStatus.Succeeded)
        {
            finished.TrySetResult(await RecordAsync(result, transfer.Source, null));
        }

        // Whatever happened, the run ends at the source now (a failed run releases its snapshot at once), after this
        // service's window closed, so the request is in neither service's figures; the next run waits for it.
        var ended = await EndAtSourceAsync(client, run.Id);
        if (result.Status == RunStatus.Succeeded)
        {
            finished.TrySetResult(await RecordAsync(result, transfer.Source, ended));
        }
    }

    /// <summary>Begins the run at the source, transfers, verifies and commits: the run succeeded, failed or was cancelled, with this service's figures.</summary>
    private async Task<RunResult> RunAsync(RunResult run, SyncTransfer transfer, SourceClient client, CancellationToken ct)
    {
        RuntimeSnapshot? localStart = null;
        SourceSnapshot? snapshot = null;
        try
        {
            localStart = runtimeWindow.Start();
            snapshot = await client.BeginRunAsync(run.Id, ct);
            SyncTransfer.Committed committed;
            await using (new RunKeepAlive(client, run.Id, options.Value.SourceKeepAlive, logger))
            {
                committed = await transfer.CommitAsync(snapshot, ct);
            }

            // Committed: nothing from here on can turn the run into a failure or a rollback.
            return Succeeded(run, committed, ServiceFigures.Between(localStart, runtimeWindow.Stop())) with { SourceSnapshot = snapshot };
        }
        catch (Exception ex)
        {
            return Ended(run, ex, localStart is null ? null : ServiceFigures.Between(localStart, runtimeWindow.Stop()), ct) with { SourceSnapshot = snapshot };
        }
    }

    /// <summary>The run as finished, with the source's figures (if the source ended it) and the bytes it received; stored.</summary>
    /// <param name="source">The run's reads of the source; null when the run failed before reading it (nothing received).</param>
    private async Task<RunResult> RecordAsync(RunResult result, ConsumerRun? source, SourceRunEnd? ended)
    {
        result = result with
        {
            SyncDataSource = ended?.Figures,
            SourceSnapshot = ended?.Snapshot ?? result.SourceSnapshot,
            WireBytes = source?.WireBytes ?? 0,
            BodyBytes = source?.BodyBytes ?? 0,
        };
        metrics.Finished(result);
        // Store even when the app is stopping: the run's fate must not stay "running".
        await store.SaveFinalAsync(result, lifetime.ApplicationStopping);
        return result;
    }

    /// <summary>Ends the run at the source and returns its figures; a run without them is still a run, and the log says why.</summary>
    private async Task<SourceRunEnd?> EndAtSourceAsync(SourceClient client, Guid run)
    {
        try
        {
            // Not the run's token: a cancelled run must still end at the source.
            var ended = await client.EndRunAsync(run, CancellationToken.None);
            if (ended.Figures is null)
            {
                logger.LogWarning("SyncDataSource sent no figures for run {Run}: {Why}", run, ended.FiguresMissing);
            }

            return ended;
        }
        catch (SourceStreamException ex)
        {
            logger.LogWarning(ex, "SyncDataSource sent no figures for run {Run}: ending it there failed", run);
            return null;
        }
    }

    /// <summary>A run that threw: cancelled (on request or at shutdown) or failed, with the figures measured so far.</summary>
    private RunResult Ended(RunResult run, Exception ex, ServiceFigures? local, CancellationToken ct)
    {
        // Once the run is cancelled, whatever broke next is a consequence of it.
        var cancelled = ct.IsCancellationRequested;
        var stopping = lifetime.ApplicationStopping.IsCancellationRequested;
        var result = run with
        {
            Status = cancelled ? RunStatus.Cancelled : RunStatus.Failed,
            Error = cancelled
                ? (stopping ? "Cancelled: SomeService is shutting down; the target was rolled back." : "Cancelled on request; the target was rolled back.")
                : Describe(ex),
            SomeService = local,
        };
        if (!cancelled)
        {
            logger.LogWarning(ex, "Run {Id} failed", run.Id);
        }

        target.ClearIfConnectionFailure(ex);
        return result;
    }

    private static RunResult Succeeded(RunResult run, SyncTransfer.Committed done, ServiceFigures local)
    {
        // A merge's rate is of the rows it merged, not of the table it left (which a change sync mostly did not touch).
        var rows = done.RowsMerged ?? done.Target.Rows;
        return run with
        {
            Status = RunStatus.Succeeded,
            Rows = done.Target.Rows,
            RowsMerged = done.RowsMerged,
            RowsDeleted = done.RowsDeleted,
            DurationMs = Math.Round(done.Duration.TotalMilliseconds, 1),
            RowsPerSecond = done.Duration > TimeSpan.Zero ? Math.Round(rows / done.Duration.TotalSeconds) : null,
            Verified = true,
            VerifyMs = Math.Round(done.VerifyTime.TotalMilliseconds, 1),
            Source = done.Source,
            Target = done.Target,
            SomeService = local,
        };
    }

    /// <summary>The failure's own words, outermost first, so the cause is named without reading logs.</summary>
    private static string Describe(Exception ex)
    {
        var parts = new List<string>();
        for (var e = ex; e is not null && parts.Count < 4; e = e.InnerException)
        {
            var text = e is SourceStreamException or VerificationException or TargetWriteException ? e.Message : $"{e.GetType().Name}: {e.Message}";
            if (!parts.Any(p => p.Contains(e.Message, StringComparison.Ordinal)))
            {
                parts.Add(text);
            }
        }

        return string.Join(" ← ", parts);
    }
}
