using System.Diagnostics;
using System.Runtime.CompilerServices;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Postgres;
using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>
/// Runs one sync at a time: open this service's measurement window; in ONE transaction empty the target and write
/// every row; verify count and checksum against the source inside that transaction (the source's answer also brings
/// its own figures for the run); commit only if they match.
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
    private readonly SemaphoreSlim _gate = new(1, 1);
    private ActiveRun? _active;

    private sealed record ActiveRun(Guid Id, CancellationTokenSource Cancellation, Task<RunResult> Completion);

    public sealed record Started(RunResult Run, Task<RunResult> Completion);

    /// <summary>Starts a run in the background, or returns null when one is already in progress.</summary>
    public async Task<Started?> TryStartAsync(SyncRequest request, CancellationToken ct)
    {
        if (!await _gate.WaitAsync(0, ct))
        {
            return null;
        }

        try
        {
            var writer = services.GetRequiredKeyedService<IUserWriter>(request.Insert);
            var run = new RunResult
            {
                Id = Guid.CreateVersion7(),
                Fetch = request.Fetch.ToString(),
                Insert = request.Insert.ToString(),
                PageSize = ApproachRegistry.Catalog[request.Fetch].Pages ? request.PageSize : null,
                BatchSize = ApproachRegistry.Catalog[request.Insert].Batches ? request.BatchSize : null,
                Compression = request.Compression,
                Status = RunStatus.Running,
                StartedAt = DateTimeOffset.UtcNow,
            };
            await store.SaveAsync(run, ct);
            var cancellation = CancellationTokenSource.CreateLinkedTokenSource(lifetime.ApplicationStopping);
            var completion = Task.Run(() => ExecuteAsync(run, request, writer, cancellation.Token), CancellationToken.None);
            _active = new ActiveRun(run.Id, cancellation, completion);
            _ = completion.ContinueWith(_ =>
            {
                _active = null;
                cancellation.Dispose();
                _gate.Release();
            }, TaskScheduler.Default);
            return new Started(run, completion);
        }
        catch
        {
            _gate.Release();
            throw;
        }
    }

    /// <summary>Cancels the run in progress if it has this id; its transaction is rolled back.</summary>
    public bool TryCancel(Guid id)
    {
        var active = _active;
        if (active is null || active.Id != id)
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

            await ((Task)active.Completion).WaitAsync(cancellationToken).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }
    }

    private async Task<RunResult> ExecuteAsync(RunResult run, SyncRequest request, IUserWriter writer, CancellationToken ct)
    {
        metrics.Started(request);
        // Every request to the source from here on carries the run's id: the source measures itself over them.
        RunTagHandler.TagRequestsWith(run.Id);
        // …and asks for the run's content coding; the bodies' bytes are counted as they arrive.
        var wire = RunWire.Begin(request.Compression);
        RuntimeSnapshot? localStart = null;
        var source = new StrongBox<SourceSummary?>();
        RunResult result = run;
        Committed? committed = null;
        try
        {
            localStart = runtimeWindow.Start();
            // Typed HttpClients are transient: one per run, so the handler rotation of IHttpClientFactory still works.
            committed = await TransferAndCommitAsync(request, writer, services.GetRequiredService<SourceClient>(), source, ct);
        }
        catch (Exception ex)
        {
            result = Ended(run, ex, localStart, source.Value, ct);
        }

        if (committed is { } done)
        {
            // Committed: nothing from here on can turn the run into a failure or a rollback.
            result = Succeeded(run, done, localStart!, source.Value);
        }

        result = result with { WireBytes = wire.WireBytes, BodyBytes = wire.BodyBytes };

        metrics.Finished(result);
        // Store even when the app is stopping: the run's fate must not stay "running".
        await store.SaveFinalAsync(result, lifetime.ApplicationStopping);
        return result;
    }

    /// <summary>A run that threw: cancelled (on request or at shutdown) or failed, with the figures measured so far.</summary>
    private RunResult Ended(RunResult run, Exception ex, RuntimeSnapshot? localStart, SourceSummary? source, CancellationToken ct)
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
            SomeService = localStart is null ? null : ServiceFigures.Between(localStart, runtimeWindow.Stop()),
            SyncDataSource = SourceFigures(source),
            SourceSnapshot = source?.Snapshot,
        };
        if (!cancelled)
        {
            logger.LogWarning(ex, "Run {Id} failed", run.Id);
        }

        target.ClearIfConnectionFailure(ex);
        return result;
    }

    private RunResult Succeeded(RunResult run, Committed done, RuntimeSnapshot localStart, SourceSummary? source) =>
        run with
        {
            Status = RunStatus.Succeeded,
            Rows = done.Target.Rows,
            DurationMs = Math.Round(done.Duration.TotalMilliseconds, 1),
            RowsPerSecond = done.Duration > TimeSpan.Zero ? Math.Round(done.Target.Rows / done.Duration.TotalSeconds) : null,
            Verified = true,
            VerifyMs = Math.Round(done.VerifyTime.TotalMilliseconds, 1),
            Source = done.Source,
            Target = done.Target,
            SomeService = ServiceFigures.Between(localStart, runtimeWindow.Stop()),
            SyncDataSource = SourceFigures(source),
            SourceSnapshot = source?.Snapshot,
        };

    /// <summary>The source's figures from its verification answer; a run without them is still a run, and the log says why.</summary>
    private ServiceFigures? SourceFigures(SourceSummary? summary)
    {
        if (summary is { Figures: null })
        {
            logger.LogWarning("SyncDataSource sent no figures for this run: {Why}", summary.FiguresMissing ?? "it measured no run (an older SyncDataSource?)");
        }

        return summary?.Figures;
    }

    private sealed record Committed(TableChecksum Source, TableChecksum Target, TimeSpan Duration, TimeSpan VerifyTime);

    /// <summary>
    /// The run itself: in one transaction empty the target and write every row; compare both sides' count and
    /// checksum inside it; commit only if they match. Returns only once committed.
    /// </summary>
    private async Task<Committed> TransferAndCommitAsync(SyncRequest request, IUserWriter writer, SourceClient sourceClient, StrongBox<SourceSummary?> source, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        await using var connection = await target.OpenConnectionAsync(ct);
        await using var transaction = await connection.BeginTransactionAsync(ct);
        await using (var truncate = new NpgsqlCommand($"truncate {UsersTable.Name}", connection, transaction))
        {
            await truncate.ExecuteNonQueryAsync(ct);
        }

        var written = await TransferAsync(request, writer, new WriteTarget(connection, transaction, request.BatchSize, options.Value.DatabaseCommandTimeoutSeconds), ct);
        var writeTime = clock.Elapsed;

        // Asked only now (a full scan on the source while rows move would slow the transfer it measures), and
        // both sides at once: two backends, two cores.
        var sourceSummaryTask = sourceClient.GetSummaryAsync(ct);
        var targetSummary = await connection.ReadUsersChecksumAsync(transaction, ct);
        source.Value = await sourceSummaryTask;
        var sourceSummary = source.Value.Table;
        var verifyTime = clock.Elapsed - writeTime;
        if (targetSummary != sourceSummary || (written is not null && written != targetSummary.Rows))
        {
            throw new VerificationException(
                $"Verification failed, rolled back: source has {sourceSummary.Rows:N0} rows (checksum {sourceSummary.Checksum}), " +
                $"target would have {targetSummary.Rows:N0} (checksum {targetSummary.Checksum})" +
                (written is null ? "" : $", writer reported {written:N0}") + ".");
        }

        // Verified: the commit is not cancellable (a DELETE or a shutdown arriving now must not abandon it half-way).
        var commitStart = clock.Elapsed;
        await transaction.CommitAsync(CancellationToken.None);
        return new Committed(sourceSummary, targetSummary, writeTime + (clock.Elapsed - commitStart), verifyTime);
    }

    /// <summary>
    /// Feeds the writer what it consumes, and names the side that failed by where the failure happened: anything
    /// thrown while reading the source is the source's (<see cref="SourceStreamException"/>), the rest the target's.
    /// </summary>
    private async Task<long?> TransferAsync(SyncRequest request, IUserWriter writer, WriteTarget writeTarget, CancellationToken ct)
    {
        var consumer = services.GetRequiredKeyedService<IFetchConsumer>(request.Fetch);
        try
        {
            switch (writer)
            {
                case IRowWriter rows:
                    return await rows.WriteAsync(metrics.CountWritten(SourceReads.Attributed(consumer.ReadAsync(request, ct), ct), request), writeTarget, ct);
                case ICopyBytesWriter bytes when consumer is IBinaryCopyConsumer copyConsumer:
                    await using (var body = metrics.CountWritten(await copyConsumer.OpenCopyStreamAsync(ct), request))
                    {
                        return await bytes.WriteAsync(body, writeTarget, ct);
                    }

                default:
                    throw new InvalidOperationException(ApproachRegistry.Catalog.Incompatibility(request.Fetch, request.Insert) ?? $"{request.Insert} cannot consume {request.Fetch}.");
            }
        }
        catch (Exception ex) when (ex is not (SourceStreamException or OperationCanceledException) && !ct.IsCancellationRequested)
        {
            throw new TargetWriteException($"Writing to SomeService's database failed ({request.Insert}): {ex.Message}", ex);
        }
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

public sealed class VerificationException(string message) : Exception(message);

/// <summary>The target database failed while rows were being written (not the source).</summary>
public sealed class TargetWriteException(string message, Exception inner) : Exception(message, inner);
