using System.Net;
using System.Net.Http.Json;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// The fetch approach NpgsqlReplication through SomeService's follow API (docs/replication.md): POST /follow/{table}
/// starts the follower (its first copy in the slot's exported snapshot, then the stream), DELETE ?drop=true stops it
/// and drops its slot and publication, replication-drop.sql after it as the last resort.
/// </summary>
public sealed class NpgsqlReplicationMechanism : IFollowMechanism
{
    /// <summary>How long the first copy may take before the start is a failure (1M orders rows on 2 slow cores: minutes).</summary>
    private static readonly TimeSpan CopyBound = TimeSpan.FromMinutes(15);

    public string Name => "NpgsqlReplication";

    public bool UsesServices => true;

    public bool ReadsChangeLog => false;

    /// <summary>The slot (and publication) of <paramref name="table"/>: the follow prefix and the table's name in the letters a slot name takes.</summary>
    private static string Slot(SyncTable table) => FollowMechanisms.Named(table);

    public string? SlotOf(SyncTable table) => Slot(table);

    /// <summary>Its slot and publication are what --follow-install names; its follower times each transaction's lag itself (the stages).</summary>
    public bool FollowsUsersTable => true;

    private static string Route(SyncTable table) => $"{SyncRoutes.Follow}/{Uri.EscapeDataString(table.Name)}";

    public async Task StartAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        await FollowSql.RunAsync(lab.TargetDb, "replication-forget.sql", table, ct, ("name", FollowSql.Literal(table.Name)));
        await FollowAsync(lab, table, ct);
    }

    /// <summary>SomeService's follower stopped without ?drop: the slot stays, and so does the target's stored LSN.</summary>
    public async Task PauseAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        using var response = await lab.SomeService.DeleteAsync(Route(table), ct);
        if (!response.IsSuccessStatusCode)
        {
            throw new InvalidOperationException($"DELETE {Route(table)} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync(ct)}");
        }
    }

    /// <summary>Started again with the target's stored LSN in place: the follower resumes from it.</summary>
    public Task ResumeAsync(FollowContext lab, SyncTable table, CancellationToken ct) => FollowAsync(lab, table, ct);

    public Task<FollowCostWindow> OpenCostWindowAsync(FollowContext lab, CancellationToken ct) => FollowCostWindow.OpenServicesAsync(lab, ct);

    /// <summary>POST /follow/{table}, then waits until the follower reports following (a first copy when the target has no LSN).</summary>
    private static async Task FollowAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        var batch = lab.Batch is { } b ? $"&batch={b}" : "";
        var publication = lab.Publication is { } p ? $"&{ReplicationRoutes.Publication}={p}" : "";
        using var response = await lab.SomeService.PostAsync($"{Route(table)}?slot={Slot(table)}{publication}{batch}", null, ct);
        if (response.StatusCode != HttpStatusCode.Accepted)
        {
            throw new InvalidOperationException($"POST {Route(table)} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync(ct)}");
        }

        var until = DateTime.UtcNow + CopyBound;
        for (var status = await StatusAsync(lab, table, ct); status.State != FollowStatus.Following; status = await StatusAsync(lab, table, ct))
        {
            if (status.State is FollowStatus.Failed or FollowStatus.Stopped || DateTime.UtcNow > until)
            {
                throw new InvalidOperationException($"The follower did not reach '{FollowStatus.Following}' (within {CopyBound.TotalMinutes:0} min): {status}");
            }

            await Task.Delay(100, ct);
        }
    }

    public async Task<string?> FailureAsync(FollowContext lab, SyncTable table, CancellationToken ct) =>
        await StatusAsync(lab, table, ct) is { State: FollowStatus.Failed or FollowStatus.Stopped } status ? $"the follower stopped: {status.Error ?? status.State}" : null;

    /// <summary>The follower's stage samples (GET /follow/{table}/stages), those of the transactions committed in the window.</summary>
    public async Task<FollowStageSummary?> StagesAsync(FollowContext lab, SyncTable table, DateTimeOffset from, DateTimeOffset to, CancellationToken ct) =>
        FollowStageSummary.Of(await StageSamplesAsync(lab, table, ct), from, to);

    /// <summary>Each transaction's lag as its four stages sum it (FollowStageSample): from the source's commit to the target's.</summary>
    public async Task<IReadOnlyList<double>?> OwnLagsAsync(FollowContext lab, SyncTable table, DateTimeOffset from, DateTimeOffset to, CancellationToken ct) =>
        [.. (await StageSamplesAsync(lab, table, ct)).Samples.Where(s => s.CommittedAt >= from && s.CommittedAt <= to).Select(FollowStage.LagMs)];

    private static async Task<FollowStages> StageSamplesAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        var route = $"{Route(table)}/{SyncRoutes.Stages}";
        return await lab.SomeService.GetFromJsonAsync(route, SyncJsonContext.Default.FollowStages, ct) ?? throw new InvalidOperationException($"GET {route} answered nothing.");
    }

    public async Task StopAsync(FollowContext lab, SyncTable table)
    {
        try
        {
            // 404: never started (a failed start); the SQL below still runs.
            using var response = await lab.SomeService.DeleteAsync($"{Route(table)}?drop=true");
        }
        finally
        {
            await FollowSql.RunAsync(lab.DropsOn, "replication-drop.sql", table, CancellationToken.None, ("slot", Slot(table)));
        }
    }

    private static async Task<FollowStatus> StatusAsync(FollowContext lab, SyncTable table, CancellationToken ct) =>
        await lab.SomeService.GetFromJsonAsync(Route(table), SyncJsonContext.Default.FollowStatus, ct)
        ?? throw new InvalidOperationException($"GET {Route(table)} answered nothing.");
}
