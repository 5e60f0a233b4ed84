using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Npgsql;
using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Runs one plan item against one lab and appends what it measured to the record: the services under the item's
/// profile and alive, the target made to differ from the source (untimed), the run, and the runner's own check of the
/// target, whatever SomeService says.
/// </summary>
public sealed class BenchExecutor(BenchSettings settings, BenchLab lab, SessionMeasurements record, Action<string> say) : IDisposable
{
    // A million rows through EFOffsetPaging × EFTypical takes minutes; HttpClient's 100 s default would cut it.
    private readonly HttpClient _http = lab.Services.CreateSomeServiceClient(TimeSpan.FromHours(2));

    /// <summary>How many times a service that had exited was started again: a case warmed in the old process is cold in the new.</summary>
    public int Revivals { get; private set; }

    /// <summary>The item's services ready: under its profile, and started again (said and recorded) if one had exited.</summary>
    public async Task PrepareAsync(PlanItem item, CancellationToken ct)
    {
        await lab.Services.UseProfileAsync(item.Profile, say, ct);
        if (await lab.Services.ReviveAsync(ct) is { } revived)
        {
            Revivals++;
            record.AddProblem($"Before {item.Title} {item.RunLabel(settings.Repeat)}: {revived}");
            say(revived);
        }
    }

    public async Task<ItemOutcome> RunAsync(PlanItem item, CancellationToken ct)
    {
        await PrepareAsync(item, ct);

        if (item.Combination is { } combination)
        {
            var run = await RunCombinationAsync(combination, item, ct) with { SourceRows = item.Rows, Link = lab.Link.Name, Table = item.Table.Name };
            run = (run with { Changed = ChangedOf(item), ChangedShare = item.Share }).Flagged(settings.JitThresholdMs);

            record.Add(run);
            return run.Ok ? new(true, $"{run.Result!.DurationMs:N0} ms, {run.Result.Rows:N0} rows, verified") : new(false, run.Error ?? "failed");
        }

        var peer = await lab.Peers(item.Table, item.Share, item.Round).RunAsync(item.Peer!, item.Round, item.Warmup, ct) with { SourceRows = item.Rows, Link = lab.Link.Name, Changed = ChangedOf(item), ChangedShare = item.Share };
        record.Add(peer);
        return peer.Ok ? new(true, $"{peer.DurationMs:N0} ms, {peer.Rows:N0} rows, verified") : new(false, peer.Error ?? "failed");
    }

    private async Task<CombinationRun> RunCombinationAsync(Combination combination, PlanItem item, CancellationToken ct)
    {
        // Untimed: the target must differ from the source, so a run that writes nothing cannot verify.
        TargetStart start;
        try
        {
            start = await lab.TargetStart(item.Table, item.Share, item.Round)(ct);
        }
        catch (Exception ex) when (ex is NpgsqlException or InvalidOperationException)
        {
            return Run(combination, item, TimeSpan.Zero, null, $"Could not prepare the target: {ex.Message}", null);
        }

        var source = start.Source;
        var clock = Stopwatch.StartNew();
        try
        {
            var before = await lab.ReadLinkCountersAsync(ct);
            var (status, body, wall) = await SyncTrigger.SendAsync(_http, combination, item.Table, settings, ct);
            var traffic = PeerRunner.LinkTrafficOf(before, await lab.ReadLinkCountersAsync(ct), source.Rows);
            if (status != HttpStatusCode.OK)
            {
                return Run(combination, item, wall, (int)status, $"HTTP {(int)status}: {Shorten(body)}", null) with { Traffic = traffic };
            }

            var result = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult) ?? throw new JsonException("empty body");
            // The runner's own verdict, whatever the service says: read the target directly.
            var target = await Lab.ReadChecksumAsync(lab.TargetDb, item.Table, ct);
            var error = RunVerdict.Of(result, source, target, lab.ServicesStartedByRunner ? item.Profile : null);
            return Run(combination, item, wall, 200, error, result) with { RunnerVerified = target == source, RunnerTarget = target, Traffic = traffic, Changes = start.Changes,
                TargetBefore = start.Target };
        }
        catch (Exception ex) when (ex is HttpRequestException or JsonException || (ex is TaskCanceledException && !ct.IsCancellationRequested))
        {
            var context = lab.Services.SomeServiceOutput is { } output ? $" SomeService's last output: {output}" : "";
            return Run(combination, item, clock.Elapsed, null, $"Request failed: {ex.Message}{context}", null);
        }
    }

    private CombinationRun Run(Combination combination, PlanItem item, TimeSpan wall, int? status, string? error, RunResult? result) => new()
    {
        Number = combination.Number,
        Case = item.Case,
        Fetch = combination.Fetch.ToString(),
        Insert = combination.Insert.ToString(),
        Compression = combination.Compression,
        Round = item.Round,
        Warmup = item.Warmup,
        // Services someone else started run whatever they run: recorded as reported, not as a profile name.
        Profile = lab.ServicesStartedByRunner ? item.Profile.Name : BenchLab.ExternalProfile,
        WallMs = Math.Round(wall.TotalMilliseconds, 1),
        HttpStatus = status,
        Error = error,
        Result = result,
    };

    private static string? ChangedOf(PlanItem item) => item.Share is { } share ? ChangedShare.Format(share) : null;

    private static string Shorten(string text) => text.Length <= 600 ? text : text[..600] + "…";

    public void Dispose() => _http.Dispose();
}
