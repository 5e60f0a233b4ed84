using System.Diagnostics;
using SyncData.Harness;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// --follow: the matrix table × --write-rate × mechanism on the lab's own tables, --repeat runs of each cell
/// (FollowRunner, one run each) in an order drawn from --seed (recorded), the record written after every run and at the
/// end, results.md's "Keeping a copy fresh" tables from it.
/// </summary>
public static class FollowCommand
{
    public static async Task<int> RunAsync(BenchSettings settings, BenchLab lab, Action<string> say, BenchEnvironment environment, Stopwatch wall, CancellationToken ct)
    {
        if (!await (settings.FollowsOwnTable ? SayOwnTableAsync(settings, lab, say, ct) : PrepareAsync(lab, say, ct)))
        {
            return BenchCommand.SetupFailed;
        }

        using var someService = new HttpClient { BaseAddress = new Uri(lab.SomeServiceAddress), Timeout = TimeSpan.FromMinutes(15) };
        var started = lab.Services as StartedServices;
        var context = new FollowContext(FollowContext.AsRunner(lab.SourceDb), FollowContext.AsRunner(lab.TargetDb), someService, settings.BatchSize)
        {
            SomeServicePid = started?.SomeService.ProcessId, SyncDataSourcePid = started?.Source?.ProcessId,
            UsersDatabase = settings.FollowsOwnTable, Publication = settings.FollowPublication,
            DropsOn = settings.FollowsOwnTable ? FollowContext.AsRunner(settings.SourceConnection!) : FollowContext.AsRunner(lab.SourceDb),
        };
        // On a user's table the lab writes nothing: no drain's backlog, no outage's load (BenchOptions refuses them there).
        var runner = settings.FollowsOwnTable ? new FollowRunner(context, say) : new FollowRunner(context, say, settings.OutageSeconds, settings.DrainChanges);
        var runs = new List<FollowRun>();
        var jsonPath = Path.Combine(settings.Out.FullName, ResultsFile.FileName);
        var complete = true;
        try
        {
            var order = Order(settings);
            foreach (var (table, why) in from t in settings.Tables from make in FollowMechanisms.Kinds let m = make() where WhyNot(settings, m, t) is not null select (t, $"{m.Name}: {WhyNot(settings, m, t)}"))
            {
                say($"--follow on {table.Name} leaves out {why}.");
            }

            say($"--follow: {order.Count} runs ({settings.Repeat} of each table × rate × mechanism that can follow it) in an order drawn from seed {settings.Seed}.");
            foreach (var (table, rate, mechanism, repeat) in order)
            {
                runs.Add(await runner.RunAsync(mechanism, table, rate, settings.FollowSeconds!.Value, ct) with { Repeat = repeat });
                await ResultsFile.WriteAsync(ResultsFile.Build(new SessionMeasurements(), lab, settings, environment, complete: false, runs), jsonPath);
            }
        }
        catch (OperationCanceledException)
        {
            complete = false;
            say("Stopped: writing what was measured so far.");
        }

        var finished = environment with { FinishedAt = DateTimeOffset.UtcNow, WallTimeMs = Math.Round(wall.Elapsed.TotalMilliseconds) };
        var report = ResultsFile.Build(new SessionMeasurements(), lab, settings, finished, complete, runs);
        await ResultsFile.WriteAsync(report, jsonPath);
        await DerivedOutputs.WriteAsync(report, settings.Out.FullName, charts: false, say);
        ConsoleSummary.ShowFollow(Spectre.Console.AnsiConsole.Console, report, settings.Out.FullName);
        return !complete ? BenchCommand.Interrupted : report.Passed ? BenchCommand.Passed : BenchCommand.RunsFailed;
    }

    /// <summary>Why <paramref name="mechanism"/> does not follow <paramref name="table"/> in this run, or null when it does.</summary>
    private static string? WhyNot(BenchSettings settings, IFollowMechanism mechanism, SyncData.Postgres.SyncTable table) =>
        settings.FollowsOwnTable && !mechanism.FollowsUsersTable
            ? "on YOUR table --follow runs NpgsqlReplication only (the objects --follow-install names, and the lag its follower times itself)"
            : mechanism.WhyNot(table);

    /// <summary>
    /// --follow on a user's table (its role's rights were checked before the lab started: OwnTableRights): what is
    /// installed there, and that nothing is written, said; the target made ready.
    /// </summary>
    private static async Task<bool> SayOwnTableAsync(BenchSettings settings, BenchLab lab, Action<string> say, CancellationToken ct)
    {
        var table = lab.OwnTable!;
        say(settings.FollowPublication is { } publication
            ? $"--follow-publication: decoding {table.SqlName} through your publication {publication}; the slot {FollowMechanisms.Named(table)} is made on your database and dropped at the end, whatever happens."
            : $"--follow-install: the publication and slot {FollowMechanisms.Named(table)} are made on your database and dropped at the end, whatever happens.");
        say($"The lab writes no row of {table.SqlName}: it follows for {settings.FollowSeconds:0} s whatever your own traffic changes, and reports the lag of what arrived.");
        await Lab.ScalarAsync(lab.TargetDb, FollowSql.Read("prepare-target.sql"), ct);
        return true;
    }

    /// <summary>Whether the clusters can carry --follow (commit timestamps, pg_walinspect, tsm_system_rows), made ready; false, the reason said, when not.</summary>
    private static async Task<bool> PrepareAsync(BenchLab lab, Action<string> say, CancellationToken ct)
    {
        if (await Lab.ScalarAsync(lab.SourceDb, FollowSql.Read("commit-timestamps-check.sql"), ct) is string reason)
        {
            say($"--follow cannot run here: {reason}.");
            return false;
        }

        try
        {
            await Lab.ScalarAsync(lab.TargetDb, FollowSql.Read("prepare-target.sql"), ct);
            await Lab.ScalarAsync(lab.SourceDb, FollowSql.Read("prepare-source.sql"), ct);
            return true;
        }
        catch (Npgsql.PostgresException ex)
        {
            say($"--follow cannot run here: it reads the target's commit times from the WAL through pg_walinspect and its users load samples rows by tsm_system_rows (both PostgreSQL's contrib), which failed: {ex.MessageText}.");
            return false;
        }
    }

    /// <summary>Every run of the matrix, --repeat of each cell (a mechanism that cannot follow a table left out: <see cref="IFollowMechanism.WhyNot"/>), shuffled by --seed: no mechanism always runs first, or after another; each run its own mechanism instance.</summary>
    public static IReadOnlyList<(SyncData.Postgres.SyncTable Table, long Rate, IFollowMechanism Mechanism, int Repeat)> Order(BenchSettings settings)
    {
        var runs = (from t in settings.Tables from r in settings.WriteRates from make in FollowMechanisms.Kinds from n in Enumerable.Range(1, settings.Repeat)
                    let mechanism = make() where WhyNot(settings, mechanism, t) is null select (t, r, mechanism, n)).ToArray();
        new Random(settings.Seed).Shuffle(runs);
        return runs;
    }
}
