using System.Net;
using System.Text.Json;
using SyncData.Postgres;
using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// The lab's change log pulled in a loop: a full sync first (NpgsqlCopy × NpgsqlCopyRaw, which stores the target's
/// watermark), then GET /sync?f=NpgsqlCopyChanges&amp;i=NpgsqlCopyRawMerge every <see cref="Interval"/> until stopped:
/// each sync applies the rows the source's change-log triggers (sql/change-tracking.sql, on the lab's own source only)
/// logged since the watermark, in one target transaction. No slot or publication: nothing to drop.
/// </summary>
public sealed class ChangeLogPollMechanism : IFollowMechanism
{
    /// <summary>The pause between one sync's answer and the next request: a sync every second plus its own time.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(1000);

    /// <summary>How long a sync refused as busy (409) is tried again before the refusal is the run's failure.</summary>
    private static readonly TimeSpan BusyBound = TimeSpan.FromSeconds(60);

    private CancellationTokenSource? _stop;
    private Task? _loop;
    private volatile string? _failure;
    // The loop's sync runs as SomeService answered them, each with both services' own figures (FollowCostWindow).
    private readonly List<RunResult> _completed = [];

    public string Name => "change log polled (1 s)";

    public bool UsesServices => true;

    public bool ReadsChangeLog => true;

    public string? SlotOf(SyncTable table) => null;

    /// <summary>The lab's change log (sql/change-tracking.sql: triggers, log tables, change fetches) is kept on users and orders only.</summary>
    public static bool HasChangeLog(SyncTable table) => table.Description is null && SyncTable.Find(table.Name) is not null;

    public string? WhyNot(SyncTable table) => HasChangeLog(table)
        ? null
        : $"the lab's change log (sql/change-tracking.sql) is kept on {string.Join(" and ", SyncTable.All.Select(t => t.Name))} only, not on {table.Name}";

    /// <summary>The loop stopped; the target's watermark stays, and the next sync after the resume reads every change since.</summary>
    public Task PauseAsync(FollowContext lab, SyncTable table, CancellationToken ct) => StopAsync(lab, table);

    public Task ResumeAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        _stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        _loop = PollAsync(lab, table, _stop.Token);
        return Task.CompletedTask;
    }

    public async Task StartAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        if (await SyncAsync(lab, table, "NpgsqlCopy", "NpgsqlCopyRaw", ct) is { } failure)
        {
            throw new InvalidOperationException($"The first full sync failed: {failure}");
        }

        _stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        _loop = PollAsync(lab, table, _stop.Token);
    }

    public Task<string?> FailureAsync(FollowContext lab, SyncTable table, CancellationToken ct) => Task.FromResult(_failure);

    public Task<FollowStageSummary?> StagesAsync(FollowContext lab, SyncTable table, DateTimeOffset from, DateTimeOffset to, CancellationToken ct) =>
        Task.FromResult<FollowStageSummary?>(null);

    public async Task StopAsync(FollowContext lab, SyncTable table)
    {
        if (_stop is null)
        {
            return;
        }

        await _stop.CancelAsync();
        try
        {
            await _loop!;
        }
        catch (OperationCanceledException)
        {
            // stopped while a sync was under way: SomeService rolls it back
        }

        _stop.Dispose();
        (_stop, _loop) = (null, null);
    }

    private async Task PollAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        while (_failure is null)
        {
            await Task.Delay(Interval, ct);
            _failure = await SyncAsync(lab, table, "NpgsqlCopyChanges", "NpgsqlCopyRawMerge", ct, _completed);
        }
    }

    /// <summary>
    /// Its sync runs' own figures, those completed after the window opened: each sync run opens both services' windows
    /// itself, so a follow window would refuse them.
    /// </summary>
    public Task<FollowCostWindow> OpenCostWindowAsync(FollowContext lab, CancellationToken ct)
    {
        var from = Completed();
        return Task.FromResult(FollowCostWindow.Computed(() => FollowCost.OfRuns(CompletedSince(from))));
    }

    private int Completed()
    {
        lock (_completed)
        {
            return _completed.Count;
        }
    }

    private List<RunResult> CompletedSince(int skip)
    {
        lock (_completed)
        {
            return [.. _completed.Skip(skip)];
        }
    }

    /// <summary>One sync, waited for; null when it succeeded, else why not.</summary>
    private static async Task<string?> SyncAsync(FollowContext lab, SyncTable table, string fetch, string insert, CancellationToken ct, List<RunResult>? completed = null)
    {
        // 409: a sync this mechanism cancelled when it last stopped (the run before, or the drain's pause) is still
        // ending in SomeService; it ends within moments, so wait for it, within a bound.
        var until = DateTime.UtcNow + BusyBound;
        var response = await new SomeServiceClient(lab.SomeService).TriggerAsync(fetch, insert, batchSize: lab.Batch, wait: true, ct: ct, table: table.Name);
        while (response.StatusCode == HttpStatusCode.Conflict && DateTime.UtcNow < until)
        {
            response.Dispose();
            await Task.Delay(250, ct);
            response = await new SomeServiceClient(lab.SomeService).TriggerAsync(fetch, insert, batchSize: lab.Batch, wait: true, ct: ct, table: table.Name);
        }

        using var answered = response;
        var body = await response.Content.ReadAsStringAsync(ct);
        if (response.StatusCode != HttpStatusCode.OK)
        {
            return $"{fetch} × {insert}: HTTP {(int)response.StatusCode}: {body}";
        }

        var result = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult);
        if (completed is not null && result is not null)
        {
            lock (completed)
            {
                completed.Add(result);
            }
        }

        return result?.Status == RunStatus.Succeeded ? null : $"{fetch} × {insert}: {result?.Error ?? body}";
    }
}
