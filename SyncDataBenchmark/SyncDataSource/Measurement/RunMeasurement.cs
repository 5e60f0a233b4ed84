using SyncData.ServiceDefaults;
using SyncData.Shared;

namespace SyncDataSource.Measurement;

/// <summary>
/// SyncDataSource measures itself over each run it serves, from the run's own requests (README, "How a run is
/// measured"): SomeService tags them with the run's id (<see cref="SourceRoutes.RunHeader"/>); the run's first fetch
/// request opens this process's window, its verification request (the last one) closes it and carries the figures
/// back. There is nothing to call and nothing to wait for: opening and closing are a snapshot each, and the
/// baseline collection that makes runs comparable happens after a window closes, while the source is idle.
/// A window that cannot be trusted yields no figures and says why: a missing figure, never a wrong one.
/// </summary>
public sealed class RunMeasurement(RuntimeWindow window, ILogger<RunMeasurement> logger)
{
    /// <summary>How long closing waits for the GC's own events (DATAS only; README, "How a run is measured").</summary>
    public static readonly TimeSpan ClosePatience = TimeSpan.FromSeconds(1);

    private readonly Lock _lock = new();
    private Guid? _open;
    private RuntimeSnapshot? _start;
    private string? _untrusted;
    private bool _baselineCollected;

    // Runs whose window ended, with why they have no (more) figures: a late request of one reopens nothing.
    private const int EndedKept = 64;
    private readonly Dictionary<Guid, string> _ended = [];
    private readonly Queue<Guid> _endedOrder = new();

    /// <summary>A request of <paramref name="run"/> arrived: opens the run's window unless it is open or over. Never throws.</summary>
    public void Enter(Guid run) => Guarded(() => EnterCore(run));

    /// <summary>A request of <paramref name="run"/> failed or its consumer went away: no verification will come. Never throws.</summary>
    public void Abandon(Guid run, string why) => Guarded(() => AbandonCore(run, why));

    /// <summary>The run's verification request arrived: closes its window and returns its figures, or why there are none. Never throws.</summary>
    public (ServiceFigures? Figures, string? Missing) Close(Guid run)
    {
        try
        {
            return CloseCore(run);
        }
        catch (Exception ex)
        {
            logger.LogError(ex, "Measuring run {Run} failed", run);
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
            logger.LogError(ex, "Measuring SyncDataSource failed");
        }
    }

    private void EnterCore(Guid run)
    {
        lock (_lock)
        {
            if (_open == run || _ended.ContainsKey(run))
            {
                return;
            }

            string? untrusted = null;
            if (_open is { } unfinished)
            {
                // The earlier run ended without its verification request (it failed in a way the source could not
                // see) or somebody else tags requests: its garbage is still here, so this window has no clean start.
                window.Stop(TimeSpan.Zero);
                End(unfinished, $"run {run}'s requests reached SyncDataSource before this run's verification request, so its window was given up");
                untrusted = $"run {unfinished}'s window was still open when this run's first request arrived, so this one opened without its baseline collection";
                logger.LogWarning("Run {Unfinished} never asked for its summary; run {Run} opens without a baseline collection and will report no source figures", unfinished, run);
            }
            else if (!_baselineCollected)
            {
                untrusted = "the baseline collection after the previous run had not finished when this run's first request arrived";
            }

            _start = window.Open(TimeSpan.Zero);
            _open = run;
            _untrusted = untrusted;
            _baselineCollected = false;
        }
    }

    private void AbandonCore(Guid run, string why)
    {
        lock (_lock)
        {
            if (_open != run)
            {
                return;
            }

            window.Stop(TimeSpan.Zero);
            _open = null;
            End(run, $"a request of this run failed at SyncDataSource or was abandoned by SomeService ({why})");
        }

        CollectBaselineInBackground();
    }

    private (ServiceFigures? Figures, string? Missing) CloseCore(Guid run)
    {
        RuntimeSnapshot start, end;
        string? untrusted;
        lock (_lock)
        {
            if (_open != run)
            {
                return (null, _ended.GetValueOrDefault(run) ?? "SyncDataSource served no fetch request of this run");
            }

            end = window.Stop(ClosePatience);
            start = _start!;
            untrusted = _untrusted;
            _open = null;
            End(run, "its figures were sent with its first verification answer");
        }

        CollectBaselineInBackground();
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

    /// <summary>The baseline collection, then the next window may open clean (unless one opened meanwhile).</summary>
    public void CollectBaseline()
    {
        window.CollectBaseline();
        lock (_lock)
        {
            _baselineCollected = _open is null;
        }
    }

    /// <summary>The latest baseline collection started after a window ended (completed when there was none).</summary>
    public Task BaselineCollection { get; private set; } = Task.CompletedTask;

    private void CollectBaselineInBackground() => BaselineCollection = Task.Run(CollectBaseline);
}
