using SyncData.Postgres;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// PostgreSQL's own logical replication as the peer: a publication and slot on the source, CREATE SUBSCRIPTION on the
/// target with copy_data (its first copy), then the apply worker streams the changes (the source side and the drops are
/// the LogicalReplication peers' own SQL, Peers/Shared/subscription-*.sql; the subscription is kept running instead of
/// stopped after the initial sync).
/// </summary>
public sealed class NativeSubscriptionMechanism : IFollowMechanism
{
    private static readonly TimeSpan CopyBound = TimeSpan.FromMinutes(15);

    /// <summary>The shared subscription SQL's name: the subscription, its publication and its slot are the follow prefix.</summary>
    private static readonly (string Key, string Value) Named = ("subscription", FollowMechanisms.Prefix);

    public string Name => "native subscription";

    public bool UsesServices => false;

    public bool ReadsChangeLog => false;

    /// <summary>The subscription's slot (Peers/Shared/subscription-source-setup.sql, named as the subscription).</summary>
    public string? SlotOf(SyncTable table) => FollowMechanisms.Prefix;

    /// <summary>ALTER SUBSCRIPTION … DISABLE: the apply worker and its walsender stop; the slot stays.</summary>
    public Task PauseAsync(FollowContext lab, SyncTable table, CancellationToken ct) =>
        FollowSql.RunAsync(lab.TargetDb, "subscription-enable.sql", table, ct, ("action", "disable"));

    public Task ResumeAsync(FollowContext lab, SyncTable table, CancellationToken ct) =>
        FollowSql.RunAsync(lab.TargetDb, "subscription-enable.sql", table, ct, ("action", "enable"));

    /// <summary>Nothing to measure in either service: PostgreSQL's walsender and apply worker do the work.</summary>
    public Task<FollowCostWindow> OpenCostWindowAsync(FollowContext lab, CancellationToken ct) => Task.FromResult(FollowCostWindow.Fixed(FollowCost.NoProcess));

    public async Task StartAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        await FollowSql.RunSqlAsync(lab.SourceDb, PeerFolder.Shared("subscription-source-setup.sql"), table, ct, Named);
        await FollowSql.RunAsync(lab.TargetDb, "subscription-target-setup.sql", table, ct, ("conninfo", FollowSql.Literal(Conninfo.From(lab.SourceDb, withPassword: true))));
        var until = DateTime.UtcNow + CopyBound;
        while (await StateAsync(lab, table, ct) is var (state, errors) && state != "r")
        {
            if (errors > 0 || DateTime.UtcNow > until)
            {
                throw new InvalidOperationException($"The subscription's table did not become ready within {CopyBound.TotalMinutes:0} min (state '{state}', {errors} errors: the server log has them).");
            }

            await Task.Delay(100, ct);
        }
    }

    public async Task<string?> FailureAsync(FollowContext lab, SyncTable table, CancellationToken ct) =>
        (await StateAsync(lab, table, ct)).Errors > 0 ? "the subscription's apply worker failed (its error is in the server log)" : null;

    public Task<FollowStageSummary?> StagesAsync(FollowContext lab, SyncTable table, DateTimeOffset from, DateTimeOffset to, CancellationToken ct) =>
        Task.FromResult<FollowStageSummary?>(null);

    public async Task StopAsync(FollowContext lab, SyncTable table)
    {
        try
        {
            await FollowSql.RunSqlAsync(lab.TargetDb, PeerFolder.Shared("subscription-target-drop.sql"), table, CancellationToken.None, Named);
        }
        finally
        {
            await FollowSql.RunSqlAsync(lab.SourceDb, PeerFolder.Shared("subscription-source-drop.sql"), table, CancellationToken.None, Named);
        }
    }

    private static async Task<(string State, long Errors)> StateAsync(FollowContext lab, SyncTable table, CancellationToken ct)
    {
        var row = await FollowSql.RowAsync(lab.TargetDb, FollowSql.Fill(FollowSql.Read("subscription-state.sql"), table), ct);
        return ((string)row[0]!, Convert.ToInt64(row[1], System.Globalization.CultureInfo.InvariantCulture));
    }
}
