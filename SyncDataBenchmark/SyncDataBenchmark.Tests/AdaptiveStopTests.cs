using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: when a case stops asking for runs (AdaptiveStop) — at least --repeat, then until its ratio's interval is
/// within --ci-width, its --case-budget is spent, --max-repeat is reached or it failed twice; the pipe as long as a
/// case of its table runs — and the JIT flag on a timed run.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class AdaptiveStopTests
{
    private const string Copy = "NpgsqlCopy:NpgsqlCopy";
    private static readonly double[] Quiet = [100, 101, 99, 100, 100, 101, 99, 100, 101, 99];

    private static BenchSettings Settings => new()
    {
        Sizes = [1_000], Repeat = 3, MaxRepeat = 8, TargetWidth = 0.10, CaseBudgetSeconds = 2, Cases = CaseSelection.Parse([Copy], out _),
        Out = new DirectoryInfo(Path.GetTempPath()), Profiles = [RuntimeProfiles.Default], PeerKeys = [PeerDefinition.PsqlBinaryKey],
    };

    private static (AdaptiveStop Stop, PlanItem Case, PlanItem Pipe, IReadOnlyList<PlanItem> All) Judge(SessionMeasurements record, BenchSettings? settings = null)
    {
        settings ??= Settings;
        var all = new BenchPlan(settings).ItemsAt(0, NetworkLink.LoopbackName, record);
        return (new AdaptiveStop(settings, record, NetworkLink.LoopbackName), all.Single(i => i.Key == Copy), all.Single(i => i.Peer is not null), all);
    }

    private static void Case(SessionMeasurements record, IEnumerable<double> times, bool ok = true)
    {
        var c = CaseNumbers.Runnable.Single(x => x.Key == Copy);
        foreach (var ms in times)
        {
            record.Add(SummaryTableTests.Run(c, 1, ms, ok));
        }
    }

    private static void Pipe(SessionMeasurements record, IEnumerable<double> times)
    {
        foreach (var ms in times)
        {
            record.Add(SummaryTableTests.Psql(ms, "users"));
        }
    }

    [Fact]
    public void A_case_runs_at_least_repeat_times_then_until_its_ratio_is_within_the_width()
    {
        var record = new SessionMeasurements();
        Pipe(record, Quiet);
        var (stop, item, _, _) = Judge(record);
        Assert.True(stop.Wants(item));

        Case(record, [100, 101]);
        Assert.True(stop.Wants(item)); // two of --repeat 3

        Case(record, Quiet);
        Assert.False(stop.Wants(item)); // twelve quiet runs against ten quiet pipe runs: well within 10%
    }

    [Fact]
    public void A_noisy_case_stops_when_its_budget_is_spent_or_at_max_repeat_and_a_failing_one_after_two_failures()
    {
        var record = new SessionMeasurements();
        Pipe(record, Quiet);
        Case(record, [60, 150, 90]);
        var (stop, item, _, _) = Judge(record);
        Assert.True(stop.Wants(item)); // 300 ms of a 2 s budget, the interval far wider than 10%

        Case(record, [60, 150, 90, 140, 70]);
        Assert.False(stop.Wants(item)); // eight runs: --max-repeat
        var (longer, sameItem, _, _) = Judge(record, Settings with { MaxRepeat = 100 });
        Assert.True(longer.Wants(sameItem)); // 810 ms spent

        Case(record, [600, 700]);
        Assert.False(longer.Wants(sameItem)); // 2.1 s: past --case-budget

        var failing = new SessionMeasurements();
        Case(failing, [100, 100], ok: false);
        var (judge, failed, _, _) = Judge(failing);
        Assert.False(judge.Wants(failed));
    }

    [Fact]
    public void The_pipe_runs_on_while_a_case_of_its_table_still_wants_runs()
    {
        var record = new SessionMeasurements();
        Pipe(record, Quiet.Take(6));
        Case(record, [60, 150, 90]);
        var (stop, item, pipe, all) = Judge(record);

        Assert.False(stop.Wants(pipe)); // its own median is known within the width
        Assert.True(stop.Wants(pipe, all)); // but the case's ratio needs more of it
        Case(record, Quiet);
        Assert.False(stop.Wants(item));
        Assert.False(stop.Wants(pipe, all));
    }

    [Fact]
    public void Runs_of_services_someone_else_started_count_for_the_main_profile()
    {
        var record = new SessionMeasurements();
        var c = CaseNumbers.Runnable.Single(x => x.Key == Copy);
        foreach (var _ in Enumerable.Range(0, 2))
        {
            // --someservice-url: the runner records the profile as "external", and the runs failed.
            record.Add(SummaryTableTests.Run(c, 1, 100, false) with { Profile = BenchLab.ExternalProfile });
        }

        var (stop, item, _, _) = Judge(record);
        Assert.False(stop.Wants(item));
    }

    [Fact]
    public void A_run_still_compiling_does_not_count_and_is_replaced_where_runs_are_compared_and_counts_where_none_are()
    {
        var record = new SessionMeasurements();
        Pipe(record, Quiet);
        var c = CaseNumbers.Runnable.Single(x => x.Key == Copy);
        foreach (var _ in Enumerable.Range(0, 3))
        {
            var run = SummaryTableTests.Run(c, 1, 1_000, true);
            record.Add((run with { Result = run.Result! with { SomeService = new ServiceFigures(0, 0, 0, 0, 0, 0, null, 0, JitTimeMs: 50) } }).Flagged(10));
        }

        // --max-repeat 3, under the test's five a side: nothing is compared, so the three flagged runs are --repeat 3's
        // runs, not replaced; and no close call runs past --repeat.
        var (few, fewItem, _, _) = Judge(record, Settings with { MaxRepeat = 3 });
        Assert.False(few.Compared);
        Assert.False(few.Wants(fewItem));
        Assert.Equal(0, few.MinimumLeft(fewItem));

        var (stop, item, _, _) = Judge(record, Settings with { MaxRepeat = 5 });
        // Compared (--max-repeat 5): three runs of --repeat 3, all flagged (3 s, past the 2 s --case-budget were they
        // counted): none counts, and --max-repeat 5 leaves room for their replacements.
        Assert.True(stop.Compared);
        Assert.True(stop.Wants(item));
        Assert.Equal(3, stop.MinimumLeft(item));
        Case(record, Quiet.Take(3));
        Assert.False(stop.Wants(item));
    }

    [Fact]
    public void A_case_the_test_tells_apart_from_every_other_stops_at_repeat_and_a_close_call_runs_on()
    {
        var settings = Settings with { Repeat = 5, MaxRepeat = 20, CaseBudgetSeconds = 1_000, Cases = CaseSelection.Parse([Copy, "EFStream:NpgsqlCopy"], out _) };
        var record = new SessionMeasurements();
        double[] noisy = [80, 120, 95, 110, 100];
        Pipe(record, noisy.Select(x => x * 0.5));
        Case(record, noisy);
        var other = CaseNumbers.Runnable.Single(x => x.Key == "EFStream:NpgsqlCopy");
        foreach (var ms in noisy)
        {
            record.Add(SummaryTableTests.Run(other, 1, ms * 3, true));
        }

        var all = new BenchPlan(settings).ItemsAt(0, NetworkLink.LoopbackName, record);
        var stop = new AdaptiveStop(settings, record, NetworkLink.LoopbackName);
        var item = all.Single(i => i.Key == Copy);
        // Its interval is far wider than 10%, but the test tells it from the pipe (2×) and the other case (3×): more runs decide nothing.
        Assert.True(stop.Apart(item, noisy));
        Assert.False(stop.Wants(item));

        // The other case as fast as this one: a close call, which runs on.
        var close = new SessionMeasurements();
        Pipe(close, noisy.Select(x => x * 0.5));
        Case(close, noisy);
        foreach (var ms in noisy)
        {
            close.Add(SummaryTableTests.Run(other, 1, ms + 1, true));
        }

        var judge = new AdaptiveStop(settings, close, NetworkLink.LoopbackName);
        Assert.False(judge.Apart(item, noisy));
        Assert.True(judge.Wants(item));
    }

    [Fact]
    public void A_timed_run_that_compiled_past_the_threshold_is_flagged_and_a_warm_up_never_is()
    {
        var c = CaseNumbers.Runnable.Single(x => x.Key == Copy);
        CombinationRun Compiled(int round, double jitMs)
        {
            var run = SummaryTableTests.Run(c, round, 100, true);
            return run with { Result = run.Result! with { SomeService = new ServiceFigures(0, 0, 0, 0, 0, 0, null, 0, JitTimeMs: jitMs) } };
        }

        Assert.True(Compiled(1, 11).Flagged(10).Unsettled);
        Assert.Null(Compiled(1, 9).Flagged(10).Unsettled);
        Assert.Null(Compiled(0, 500).Flagged(10).Unsettled);
        // 50 ms of compiling in a two-minute run is under 1% of it: not flagged.
        var longRun = Compiled(1, 50);
        Assert.Null((longRun with { Result = longRun.Result! with { DurationMs = 120_000 } }).Flagged(10).Unsettled);
    }
}
