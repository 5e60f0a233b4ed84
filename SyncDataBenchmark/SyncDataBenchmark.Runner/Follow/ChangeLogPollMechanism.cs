using System.Net;
using System.Text.Json;
using SyncData.Postgres;
using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;

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

    private CancellationTokenSource? _stop;
    private Task? _loop;
    private volatile string? _failure;

    public string Name => "change log polled (1 s)";

    public async Task StartAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        _failure = null;
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
            _failure = await SyncAsync(lab, table, "NpgsqlCopyChanges", "NpgsqlCopyRawMerge", ct);
        }
    }

    /// <summary>One sync, waited for; null when it succeeded, else why not.</summary>
    private static async Task<string?> SyncAsync(FollowContext lab, SyncTable table, string fetch, string insert, CancellationToken ct)
    {
        using var response = await new SomeServiceClient(lab.SomeService).TriggerAsync(fetch, insert, batchSize: lab.Batch, wait: true, ct: ct, table: table.Name);
        var body = await response.Content.ReadAsStringAsync(ct);
        if (response.StatusCode != HttpStatusCode.OK)
        {
            return $"{fetch} × {insert}: HTTP {(int)response.StatusCode}: {body}";
        }

        var result = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult);
        return result?.Status == RunStatus.Succeeded ? null : $"{fetch} × {insert}: {result?.Error ?? body}";
    }
}
