using SyncData.Measurement;
using SyncData.Shared;

namespace SyncDataSource.Runs;

/// <summary>
/// SyncDataSource measures itself over each run it serves (docs/measuring.md, "How a run is measured"): the run's
/// begin opens this process's window once the baseline collection after the previous run has finished, its end closes
/// it and returns the figures. The baseline collection that makes runs comparable happens after a window closes,
/// while the source is idle. A window that cannot be trusted yields no figures and says why: a missing figure, never
/// a wrong one.
/// </summary>
public sealed class RunMeasurement
{
    /// <summary>How long closing waits for the GC's own events (DATAS only; docs/measuring.md, "How a run is measured").</summary>
    public static readonly TimeSpan ClosePatience = TimeSpan.FromSeconds(1);

    private readonly RuntimeWindow _window;
    private readonly ILogger<RunMeasurement> _logger;
    private readonly Lock _lock = new();
    private Guid? _open;
    private RuntimeSnapshot? _start;
    private string? _untrusted;
    private Task _baseline;

    // Runs whose window ended, with why they have no (more) figures: a late begin or end of one reopens nothing.
    private const int EndedKept = 64;
    private readonly Dictionary<Guid, string> _ended = [];
    private readonly Queue<Guid> _endedOrder = new();

    public RunMeasurement(RuntimeWindow window, ILogger<RunMeasurement> logger)
    {
        (_window, _logger) = (window, logger);
        // Startup leaves garbage too: the first run starts from the same baseline as the rest.
        _baseline = Task.Run(CollectBaseline);
    }

    /// <summary>The latest baseline collection (at startup, or after a window ended); a begin waits for it.</summary>
    public Task BaselineCollection => _baseline;

    /// <summary>
    /// Opens <paramref name="run"/>'s window once the baseline collection under way has finished; false when the run
    /// was begun before (open or ended). Never throws for measuring's sake.
    /// </summary>
    public async Task<bool> BeginAsync(Guid run)
    {
        while (true)
        {
            Task baseline;
            lock (_lock)
            {
                if (_open == run || _ended.ContainsKey(run))
                {
                    return false;
                }

                baseline = _baseline;
                if (baseline.IsCompleted)
                {
                    Guarded(() => OpenLocked(run));
                    return true;
                }
            }

            await baseline;
        }
    }

    /// <summary>A request of <paramref name="run"/> failed or the run was forgotten: its window is given up. Never throws.</summary>
    public void Abandon(Guid run, string why) => Guarded(() => AbandonCore(run, why));

    /// <summary>The run ended: closes its window and returns its figures, or why there are none. Never throws.</summary>
    public (ServiceFigures? Figures, string? Missing) Close(Guid run)
    {
        try
        {
            return CloseCore(run);
        }
        catch (Exception ex)
        {
            _logger.LogError(ex, "Measuring run {Run} failed", run);
            return (null, $"measuring the source failed: {ex.GetType().Name}: {ex.Message}");
        }
    }

    // Measuring is never a reason for a request, let alone a run, to fail.
    private void Guarded(Action action)
    {
        try
        {
            action();
        }
        catch (Exception ex)
        {
            _logger.LogError(ex, "Measuring SyncDataSource failed");
        }
    }

    private void OpenLocked(Guid run)
    {
        string? untrusted = null;
        if (_open is { } unfinished)
        {
            // The earlier run never ended (its consumer went away before the idle timeout, or somebody else begins
            // runs): its garbage is still here, and its requests may still be running, so this window has no clean start.
            _window.Stop(TimeSpan.Zero);
            End(unfinished, $"run {run} began before this run ended, so its window was given up");
            untrusted = $"run {unfinished}'s window was still open when this run began, so this one opened without its baseline collection";
            _logger.LogWarning("Run {Unfinished} never ended; run {Run} opens without a baseline collection and will report no source figures", unfinished, run);
        }

        _start = _window.Open(TimeSpan.Zero);
        _open = run;
        _untrusted = untrusted;
    }

    private void AbandonCore(Guid run, string why)
    {
        lock (_lock)
        {
            if (_open != run)
            {
                return;
            }

            _window.Stop(TimeSpan.Zero);
            _open = null;
            End(run, $"a request of this run failed at SyncDataSource, or the run was forgotten ({why})");
            _baseline = Task.Run(CollectBaseline);
        }
    }

    private (ServiceFigures? Figures, string? Missing) CloseCore(Guid run)
    {
        RuntimeSnapshot start, end;
        string? untrusted;
        lock (_lock)
        {
            if (_open != run)
            {
                return (null, _ended.GetValueOrDefault(run) ?? "SyncDataSource never began this run");
            }

            end = _window.Stop(ClosePatience);
            start = _start!;
            untrusted = _untrusted;
            _open = null;
            End(run, "its figures were sent with its first end answer");
            _baseline = Task.Run(CollectBaseline);
        }

        return untrusted is null ? (ServiceFigures.Between(start, end), null) : (null, untrusted);
    }

    private void End(Guid run, string why)
    {
        if (_ended.TryAdd(run, why))
        {
            _endedOrder.Enqueue(run);
            if (_endedOrder.Count > EndedKept)
            {
                _ended.Remove(_endedOrder.Dequeue());
            }
        }
    }

    private void CollectBaseline() => Guarded(_window.CollectBaseline);
}
