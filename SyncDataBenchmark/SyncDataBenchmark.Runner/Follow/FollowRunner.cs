using System.Globalization;
using SyncData.Harness;
using SyncData.Postgres;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// One run of the follow matrix: the target made to differ, the mechanism following (its own first copy), pgbench's
/// load for the duration, the wait until the target equals the source by the runner's checksum (bounded by
/// <see cref="CatchUpBound"/>), the lag sample; with --drain its capacity (<see cref="DrainAsync"/>); the mechanism stopped and its slots, publications and subscriptions
/// dropped on every path, failure and cancellation included.
/// </summary>
public sealed class FollowRunner(FollowContext lab, Action<string> say, double? outageSeconds = null, long? drainChanges = null)
{
    /// <summary>How long after the load stops the target may take to equal the source before the run fails unverified.</summary>
    public static readonly TimeSpan CatchUpBound = TimeSpan.FromSeconds(120);

    public async Task<FollowRun> RunAsync(IFollowMechanism mechanism, SyncTable table, long rate, double seconds, CancellationToken ct)
    {
        var run = await RunOnceAsync(mechanism, table, rate, seconds, ct);
        return run with { LeftBehind = await LeftBehindAsync() };
    }

    /// <summary>Slots, publications and subscriptions of the follow prefix still on the source or the target, named once each (a slot is the cluster's: both see it); null when none.</summary>
    public async Task<string?> LeftBehindAsync()
    {
        var sql = FollowSql.Fill(FollowSql.Read("leftovers.sql"), SyncTable.Default);
        var found = new[] { (await FollowSql.RowAsync(lab.SourceDb, sql, CancellationToken.None))[0] as string, (await FollowSql.RowAsync(lab.TargetDb, sql, CancellationToken.None))[0] as string }
            .SelectMany(s => (s ?? "").Split(", ", StringSplitOptions.RemoveEmptyEntries)).Distinct().ToList();
        return found.Count > 0 ? string.Join(", ", found) : null;
    }

    private async Task<FollowRun> RunOnceAsync(IFollowMechanism mechanism, SyncTable table, long rate, double seconds, CancellationToken ct)
    {
        // A user's table has no load of the lab's: nothing asked.
        var run = new FollowRun(table.Name, mechanism.Name, rate, seconds) { TransactionsPerSecondAsked = lab.UsersDatabase ? 0 : Math.Round(FollowLoad.TransactionsPerSecond(table, rate), 1) };
        try
        {
            say($"{table.Name}, {rate:N0} rows/s, {mechanism.Name}: the target emptied, the first copy…");
            await SetChangeLogTriggersAsync(table, mechanism.ReadsChangeLog, ct);
            var source = await Lab.ReadChecksumAsync(lab.SourceDb, table, ct);
            _ = lab.UsersDatabase ? await OwnTableSource.EmptyTargetAsync(lab.TargetDb, table, source, ct) : await TargetPreparation.EmptyAsync(lab.TargetDb, table, source, ct);
            await mechanism.StartAsync(lab, table, ct);
            return lab.UsersDatabase ? await FollowUsersTrafficAsync(mechanism, table, run, ct) : await MeasureAsync(mechanism, table, run, ct);
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !ct.IsCancellationRequested)
        {
            return run with { Error = ex.Message };
        }
        finally
        {
            await mechanism.StopAsync(lab, table);
            // Back on whatever happened: the lab's change fetches rely on the log being complete.
            await SetChangeLogTriggersAsync(table, true, CancellationToken.None);
        }
    }

    /// <summary>The source table's change-log row triggers on or off (change-log-triggers.sql); a table without a change log has none to set.</summary>
    private Task SetChangeLogTriggersAsync(SyncTable table, bool enabled, CancellationToken ct) => ChangeLogPollMechanism.HasChangeLog(table)
        ? FollowSql.RunAsync(lab.SourceDb, "change-log-triggers.sql", table, ct, ("action", enabled ? "enable" : "disable"), ("name", table.Name))
        : Task.CompletedTask;

    private async Task<FollowRun> MeasureAsync(IFollowMechanism mechanism, SyncTable table, FollowRun run, CancellationToken ct)
    {
        say($"  following; pgbench at {run.TransactionsPerSecondAsked:N1} transactions/s for {run.Seconds:0} s…");
        var walStart = await FollowLag.FlushedPositionAsync(lab.SourceDb, ct);
        await using var cost = await mechanism.OpenCostWindowAsync(lab, ct);
        var loadStart = await ClockAsync(ct);
        var load = await FollowLoad.RunAsync(lab.SourceDb, table, run.WriteRate, run.Seconds, ct);
        var loadEnd = await ClockAsync(ct);
        var mix = await WrittenRows.SinceAsync(lab.SourceDb, table, walStart, ct);
        run = run with
        {
            PgbenchTransactions = load.Transactions, PgbenchTps = load.Tps, Writers = WriterTransactionSummary.Of(load.TransactionMs),
            ChangeLogTriggers = ChangeLogPollMechanism.HasChangeLog(table)
                ? (bool?)(await FollowSql.RowAsync(lab.SourceDb, FollowSql.Fill(FollowSql.Read("change-log-triggers-state.sql"), table, ("name", table.Name)), ct))[0]
                : null,
            MixAsked = FollowScript.Of(table).Mix, MixAchieved = mix, SourceRowsWritten = (long)mix.Total, LoadMs = Math.Round((loadEnd - loadStart).TotalMilliseconds),
        };
        if (await CatchUpAsync(mechanism, table, ct) is { } failure)
        {
            return run with { Error = failure };
        }

        var spent = await cost.CloseAsync();
        var sample = await FollowLag.MeasureAsync(lab.SourceDb, lab.TargetDb, table, loadStart, loadEnd, walStart, ct);
        var stages = await mechanism.StagesAsync(lab, table, new DateTimeOffset(loadStart, TimeSpan.Zero), new DateTimeOffset(loadEnd, TimeSpan.Zero), ct);
        var applyingMs = sample.LastTargetCommitMs - ToEpochMs(loadStart);
        say($"  verified; timed {sample.LagsMs.Count:N0} of {mix.Total:N0} changes, pgbench {load.Tps:N1} tps.");
        // After every figure of the run is read: the drain and the outage write on.
        var drain = drainChanges is { } changes ? await DrainAsync(mechanism, table, changes, ct) : null;
        var outageFigures = outageSeconds is { } outage ? await OutageAsync(mechanism, table, run.WriteRate, outage, ct) : null;
        return run with
        {
            Drain = drain,
            Outage = outageFigures,
            Verified = true,
            Lag = FollowLagSummary.Of(sample.LagsMs),
            Stages = stages,
            RowsAppliedPerSecond = applyingMs > 0 ? Math.Round(mix.Total / (applyingMs.Value / 1000), 1) : null,
            CatchUpMs = sample.LastTargetCommitMs - sample.LastSourceCommitMs,
            Cost = spent,
        };
    }

    /// <summary>
    /// On a user's table (FollowContext.UsersDatabase): the lab writes nothing; it follows for the run's duration whatever
    /// the user's own traffic changes, then waits until the target equals the table (bounded as any catch-up), and
    /// reports the lag of each transaction that arrived as the mechanism timed it (no WAL of the user's is read).
    /// </summary>
    private async Task<FollowRun> FollowUsersTrafficAsync(IFollowMechanism mechanism, SyncTable table, FollowRun run, CancellationToken ct)
    {
        say($"  following your table's own traffic for {run.Seconds:0} s; the lab writes nothing to it…");
        await using var cost = await mechanism.OpenCostWindowAsync(lab, ct);
        var from = await ClockAsync(ct);
        await Task.Delay(TimeSpan.FromSeconds(run.Seconds), ct);
        var to = await ClockAsync(ct);
        run = run with { LoadMs = Math.Round((to - from).TotalMilliseconds) };
        if (await CatchUpAsync(mechanism, table, ct) is { } failure)
        {
            return run with { Error = failure };
        }

        var spent = await cost.CloseAsync();
        var (start, end) = (new DateTimeOffset(from, TimeSpan.Zero), new DateTimeOffset(to, TimeSpan.Zero));
        var lags = await mechanism.OwnLagsAsync(lab, table, start, end, ct) ?? [];
        say($"  verified; {lags.Count:N0} of your transactions arrived while it followed (the lab wrote none).");
        return run with { Verified = true, Lag = FollowLagSummary.Of(lags), Stages = await mechanism.StagesAsync(lab, table, start, end, ct), Cost = spent };
    }

    /// <summary>
    /// --drain: the mechanism stopped, a backlog of about <paramref name="changes"/> rows written by pgbench unthrottled,
    /// the mechanism started again; the time from that restart (the cluster's clock) to the target's last commit of a
    /// backlog row (its commit record in the WAL, as the lag), once the target equals the source; and the whole
    /// system's CPU over it (SystemCpuWindow). Nothing else writes meanwhile: the rate is what the mechanism can apply.
    /// </summary>
    private async Task<FollowDrain> DrainAsync(IFollowMechanism mechanism, SyncTable table, long changes, CancellationToken ct)
    {
        say($"  drain: {mechanism.Name} stopped while pgbench writes a backlog of {changes:N0} changes…");
        await mechanism.PauseAsync(lab, table, ct);
        var before = await FollowLag.FlushedPositionAsync(lab.SourceDb, ct);
        var written = new DateTimeOffset(await ClockAsync(ct), TimeSpan.Zero);
        await FollowLoad.BacklogAsync(lab.SourceDb, table, changes, ct);
        var walStart = await FollowLag.FlushedPositionAsync(lab.SourceDb, ct);
        var backlog = (long)(await WrittenRows.SinceAsync(lab.SourceDb, table, before, ct)).Total;
        var cpu = await SystemCpuWindow.OpenAsync(lab, mechanism.UsesServices, ct);
        var restart = await ClockAsync(ct);
        await mechanism.ResumeAsync(lab, table, ct);
        var failure = await CatchUpAsync(mechanism, table, ct);
        var spent = await cpu.CloseAsync(ct);
        if (failure is not null)
        {
            say($"  drain failed: {failure}");
            return new FollowDrain(backlog, null, false, failure) { Cpu = spent };
        }

        var last = await FollowLag.LastAppliedAsync(lab.SourceDb, lab.TargetDb, table, walStart, ct);
        var stages = await mechanism.StagesAsync(lab, table, written, new DateTimeOffset(restart, TimeSpan.Zero), ct);
        var drain = new FollowDrain(backlog, last is { } end ? Math.Round(end - ToEpochMs(restart), 1) : null, true, last is null ? "no backlog row's commit found in the target's WAL" : null)
        {
            Cpu = spent, Stages = stages,
            FirstAppliedMs = stages?.FirstApplied is { } first ? Math.Round((first - new DateTimeOffset(restart, TimeSpan.Zero)).TotalMilliseconds, 1) : null,
        };
        say($"  drained {backlog:N0} changes in {drain.Ms:N0} ms: {drain.RowsPerSecond:N0} rows/s, {drain.CpuPerChangeUs:N1} µs of CPU a change.");
        if (stages is not null)
        {
            say($"  its {stages.Batches:N0} batches ({stages.BatchChanges.P50:N0} changes at the median) applied for {stages.ApplyingMs:N0} ms; the first committed {drain.FirstAppliedMs:N0} ms after the restart.");
        }

        return drain;
    }

    /// <summary>--outage: the mechanism paused while pgbench writes on at the same rate; the WAL its slot holds at the end; the catch-up once it applies again, verified.</summary>
    private async Task<FollowOutage> OutageAsync(IFollowMechanism mechanism, SyncTable table, long rate, double seconds, CancellationToken ct)
    {
        say($"  outage: {mechanism.Name} stopped for {seconds:0} s while pgbench writes on…");
        await mechanism.PauseAsync(lab, table, ct);
        var start = (await FollowSql.RowAsync(lab.SourceDb, FollowSql.Read("wal-position.sql"), ct))[0]!;
        await FollowLoad.RunAsync(lab.SourceDb, table, rate, seconds, ct);
        var wal = await FollowSql.RowAsync(lab.SourceDb, FollowSql.Read("outage-wal.sql"), ct, start, mechanism.SlotOf(table) ?? "");
        var clock = System.Diagnostics.Stopwatch.StartNew();
        await mechanism.ResumeAsync(lab, table, ct);
        var failure = await CatchUpAsync(mechanism, table, ct);
        say(failure is null ? $"  caught up {clock.Elapsed.TotalSeconds:0.0} s after the restart." : $"  after the outage: {failure}");
        return new FollowOutage(seconds, Convert.ToInt64(wal[0], CultureInfo.InvariantCulture), wal[1] is null ? null : Convert.ToInt64(wal[1], CultureInfo.InvariantCulture),
            failure is null ? Math.Round(clock.Elapsed.TotalMilliseconds) : null, failure is null, failure);
    }

    /// <summary>Null once the target equals the source by count and checksum; else why not within the bound (or the mechanism's own failure).</summary>
    private async Task<string?> CatchUpAsync(IFollowMechanism mechanism, SyncTable table, CancellationToken ct)
    {
        var source = await Lab.ReadChecksumAsync(lab.SourceDb, table, ct);
        var until = DateTime.UtcNow + CatchUpBound;
        var reading = System.Diagnostics.Stopwatch.StartNew();
        while (await Lab.ReadChecksumAsync(lab.TargetDb, table, ct) is var target && target != source)
        {
            // The checksum reads the whole table: on a large one, waiting twice its time between reads keeps the
            // polling to a third of a core, so it slows the mechanism it waits for less.
            var pause = TimeSpan.FromTicks(Math.Max(TimeSpan.FromMilliseconds(200).Ticks, 2 * reading.Elapsed.Ticks));
            if (await mechanism.FailureAsync(lab, table, ct) is { } failure)
            {
                return failure;
            }

            if (DateTime.UtcNow > until)
            {
                return $"the target did not equal the source within {CatchUpBound.TotalSeconds:0} s after the load stopped (target {target}, source {source})";
            }

            await Task.Delay(pause, ct);
            reading.Restart();
            if (lab.UsersDatabase)
            {
                // A user's traffic goes on: the target is to equal the table as it is now, not as it was.
                source = await Lab.ReadChecksumAsync(lab.SourceDb, table, ct);
            }
        }

        return null;
    }

    /// <summary>The cluster's clock, which the commit timestamps are read on.</summary>
    private async Task<DateTime> ClockAsync(CancellationToken ct) => (DateTime)(await Lab.ScalarAsync(lab.SourceDb, "select clock_timestamp()", ct))!;

    private static double ToEpochMs(DateTime utc) => (utc - DateTime.UnixEpoch).TotalMilliseconds;
}
