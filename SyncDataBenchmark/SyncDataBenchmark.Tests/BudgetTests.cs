using SyncData.Harness;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Budget;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the budget's plan (BudgetPlanner) — every case its warm-ups and --repeat runs while they fit, the costliest
/// measured once when they do not, left out only when one run does not fit, the pipe always kept — and the costs it plans
/// with (CostModel: earlier records' times, scaled by how fast this machine runs today).
/// </summary>
[Trait("Tier", "Fast")]
public sealed class BudgetTests
{
    private const string Cheap = "NpgsqlCopy:NpgsqlCopy";
    private const string Costly = "EFOffsetPaging:EFTypical";

    private static BenchSettings Settings => new()
    {
        Sizes = [1_000_000], Repeat = 5, MaxRepeat = 20, Cases = CaseSelection.Parse([Cheap, Costly], out _),
        Out = new DirectoryInfo(Path.GetTempPath()), Profiles = [RuntimeProfiles.Default], PeerKeys = [PeerDefinition.PsqlBinaryKey],
    };

    /// <summary>Request times as a record would give them: the pipe 1 s, the cheap case 2 s, the costly one 120 s, at a million rows.</summary>
    private static PriorCosts Priors => new(new Dictionary<string, IReadOnlyList<(long, double)>>
    {
        [PeerDefinition.PsqlBinaryKey] = [(1_000_000, 1.0)], [Cheap] = [(1_000_000, 2.0)], [Costly] = [(1_000_000, 120.0)],
    });

    private static SizePlan Plan(double seconds, PriorCosts? priors = null)
    {
        var items = new BenchPlan(Settings).ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements());
        return BudgetPlanner.Plan(items, Settings, new CostModel(priors ?? Priors), seconds, NetworkLink.LoopbackName);
    }

    [Fact]
    public void Every_case_gets_its_runs_when_they_fit()
    {
        // Each run carries 1.15 s of the runner's own work at a million rows: 7 × 3.15 + 7 × 121.15 + 6 × 2.15 ≈ 883 s.
        var plan = Plan(seconds: 1200);

        Assert.Empty(plan.Decisions);
        Assert.Equal(3, plan.Full);
        Assert.InRange(plan.MinimumSeconds, 880, 890);
    }

    [Fact]
    public void The_costliest_case_is_measured_once_when_its_runs_do_not_fit_and_left_out_when_one_run_does_not()
    {
        var once = Plan(seconds: 300);
        var decided = Assert.Single(once.Decisions);
        Assert.Equal((Costly, 1), (decided.Case, decided.Runs));
        Assert.Contains("do not fit in the budget", decided.Reason);
        Assert.InRange(once.MinimumSeconds, 0, 300 * BudgetPlanner.MinimumShare);

        // 100 s: not even the costly case's one run fits beside the rest; the cheap case is cut to one run first, the pipe never.
        var tight = Plan(seconds: 100);
        Assert.Contains(tight.Decisions, d => d is { Case: Costly, Runs: 0 });
        Assert.DoesNotContain(tight.Decisions, d => d.Case == PeerDefinition.PsqlBinaryKey);
        Assert.InRange(tight.MinimumSeconds, 0, 100 * BudgetPlanner.MinimumShare);
        Assert.Contains(tight.Describe(1_000_000), l => l.StartsWith("  left out: #1 EFOffsetPaging × EFTypical", StringComparison.Ordinal));
    }

    [Fact]
    public void A_left_out_case_is_not_planned_and_a_case_measured_once_wants_one_run()
    {
        var record = new SessionMeasurements();
        var settings = Settings;
        var all = new BenchPlan(settings).ItemsAt(0, NetworkLink.LoopbackName, record);
        var costly = all.Single(i => i.Key == Costly);
        record.Add(new BudgetedCase(Costly, costly.Title, costly.Rows, NetworkLink.LoopbackName, 1, 120, "test"));
        var stop = new AdaptiveStop(settings, record, NetworkLink.LoopbackName);
        Assert.True(stop.Wants(costly));
        record.Add(SummaryTableTests.Run(CaseNumbers.Runnable.Single(c => c.Key == Costly), 1, 120_000, true) with { SourceRows = 1_000_000 });
        Assert.False(stop.Wants(costly));

        record.Add(new BudgetedCase(Costly, costly.Title, costly.Rows, NetworkLink.LoopbackName, 0, 120, "test"));
        Assert.DoesNotContain(new BenchPlan(settings).ItemsAt(0, NetworkLink.LoopbackName, record), i => i.Key == Costly);
    }

    [Fact]
    public void A_case_costs_its_prior_scaled_by_todays_speed_then_its_own_time()
    {
        var cost = new CostModel(Priors);
        var items = new BenchPlan(Settings).ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements());
        var (pipe, cheap, costly) = (items.Single(i => i.Peer is not null), items.Single(i => i.Key == Cheap), items.Single(i => i.Key == Costly));
        Assert.Equal(121.15, cost.Seconds(costly), 6);

        // A warm-up, however slow (a fresh process compiling), says nothing of today's speed; nor does a run at a size
        // its prior was scaled to (10,000 rows from a million: a run's fixed part is not in it).
        cost.Record(costly.AsWarmup(), TimeSpan.FromSeconds(1_000));
        cost.Record(pipe with { Rows = 10_000 }, TimeSpan.FromSeconds(30));
        Assert.Equal(1, cost.Speed, 6);

        // Today the machine runs at half speed: the pipe and the cheap case took twice their priors.
        cost.Record(pipe, TimeSpan.FromSeconds(4.3));
        cost.Record(cheap, TimeSpan.FromSeconds(6.3));
        Assert.Equal(2, cost.Speed, 6);
        Assert.Equal(242.3, cost.Seconds(costly), 6);
        Assert.Equal(6.3, cost.Seconds(cheap), 6);

        // A smaller size: the case's own time here, in proportion to the rows.
        Assert.Equal(0.63, cost.Seconds(cheap with { Rows = 100_000 }), 6);
    }

    [Fact]
    public void Results_md_says_the_budgets_plan_and_the_round_it_did_not_start()
    {
        var c = CaseNumbers.Runnable.Single(x => x.Key == Cheap);
        var record = SummaryTableTests.Record([SummaryTableTests.Run(c, 1, 100, true)], [SummaryTableTests.Psql(90, "users")]) with
        {
            Budget = new BudgetRecord(120, [], ["Plan at 1,000 rows: 1 case(s)", "At 1,000 rows round 4 was not started: it would take ~23s"]),
        };

        var markdown = MarkdownReport.Render(ReportTables.Of(record), charts: false);

        Assert.Contains("The budget (2m 00s, --budget): its plan and what it stopped:", markdown);
        Assert.Contains("- At 1,000 rows round 4 was not started: it would take ~23s", markdown);
    }

    [Fact]
    public void Priors_come_from_a_records_verified_loopback_runs()
    {
        var c = CaseNumbers.Runnable.Single(x => x.Key == Cheap);
        var record = SummaryTableTests.Record(
            [SummaryTableTests.Run(c, 1, 2_000, true), SummaryTableTests.Run(c, 2, 4_000, true), SummaryTableTests.Run(c, 3, 9_000, false),
             SummaryTableTests.Run(c, 4, 50_000, true) with { Link = "100mbit" }, SummaryTableTests.Run(c, 0, 20_000, true)],
            [SummaryTableTests.Psql(900, "users") with { WallMs = 1_000 }]);

        var priors = PriorCosts.Of([record]);

        Assert.Equal(3.0, priors.RequestSeconds(Cheap, 1_000)!.Value, 6);
        // A warm-up (a fresh process compiles) costs its timed prior plus what the record's warm-up took beyond it, which
        // does not grow with the rows; a case without one costs its timed runs'.
        Assert.Equal(20.0, priors.RequestSeconds(Cheap, 1_000, warmup: true)!.Value, 6);
        Assert.Equal(30.0 + 17.0, priors.RequestSeconds(Cheap, 10_000, warmup: true)!.Value, 6);
        Assert.Equal(1.0, priors.RequestSeconds(PeerDefinition.PsqlBinaryKey, 1_000, warmup: true)!.Value, 6);
        Assert.Equal(30.0, priors.RequestSeconds(Cheap, 10_000)!.Value, 6);
        Assert.Equal(1.0, priors.RequestSeconds(PeerDefinition.PsqlBinaryKey, 1_000)!.Value, 6);
        Assert.Null(priors.RequestSeconds("EFStream:EFTypical", 1_000));
    }

    [Fact]
    public void The_minimum_left_counts_each_cases_warm_ups_once_a_restart_per_profile_and_no_close_call()
    {
        var settings = Settings with { Profiles = [RuntimeProfiles.Default, RuntimeProfiles.Tuned] };
        var all = new BenchPlan(settings).ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements());
        var main = all.Where(i => i.MainProfile).ToList();
        Assert.Equal(new[] { Cheap, Costly, PeerDefinition.PsqlBinaryKey, Cheap + "@tuned" }.Order(), all.Select(i => i.Key).Order());
        // A run 1 s, a case's warm-ups 10 s, a restart 100 s; the services under default, nothing warm, 5 runs each to go.
        var costs = new RunCosts(_ => 1, _ => 10, 100);
        string[] phases = [RuntimeProfiles.DefaultName, RuntimeProfiles.TunedName];
        double Left(IReadOnlyList<PlanItem> round, Func<PlanItem, int> minimum, IReadOnlySet<string> warm) =>
            RemainingTime.Seconds(RemainingTime.Minimum(round, all, minimum, phases), costs, RuntimeProfiles.DefaultName, warm);

        // Round 1 of default: 3 × (10 + 1); its 4 more rounds 12 × 1, warm; then tuned: 100 + 10 + 5 × 1.
        Assert.Equal(33 + 12 + 115, Left(main, _ => 5, new HashSet<string>()));
        // Two of round 1's items ran (warm now, 4 runs short): the time left shrinks as cases run.
        var ran = main.Take(2).Select(i => i.Key).ToHashSet();
        Assert.Equal(11 + 12 + 115, Left(main.Skip(2).ToList(), i => ran.Contains(i.Key) ? 4 : 5, ran));
        // Every minimum met: a close call's round left is all that is planned, the budget's slack never.
        Assert.Equal(1, Left([main[0]], _ => 0, ran));
        // A restart at each change of profile in a round's order, and what ran before it is cold after it.
        Assert.Equal(3 * 11 + 100 + 11, RemainingTime.Seconds([.. main, all.Single(i => !i.MainProfile)], costs, RuntimeProfiles.DefaultName, new HashSet<string>()));
    }

    [Fact]
    public void The_plan_counts_one_restart_per_further_profile_and_below_five_runs_a_side_two_warm_ups_at_most()
    {
        var settings = Settings with { Profiles = [RuntimeProfiles.Default, RuntimeProfiles.Tuned, RuntimeProfiles.Workstation] };
        var items = new BenchPlan(settings).ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements());
        var alone = new BenchPlan(Settings).ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements());
        var cost = new CostModel(Priors);
        var profiled = items.Where(i => !i.MainProfile).Sum(i => (2 * cost.Seconds(i.AsWarmup())) + (5 * cost.Seconds(i)));

        var plan = BudgetPlanner.Plan(items, settings, cost, 100_000, NetworkLink.LoopbackName);
        var without = BudgetPlanner.Plan(alone, Settings, cost, 100_000, NetworkLink.LoopbackName);

        // Two further profiles: two restarts of the services in all, whatever --repeat.
        Assert.Equal(without.MinimumSeconds + profiled + (2 * CostModel.DefaultRestartSeconds), plan.MinimumSeconds, 6);
        Assert.Equal(10, BudgetPlanner.MostWarmups(Settings));
        Assert.Equal(2, BudgetPlanner.MostWarmups(Settings with { Repeat = 1, MaxRepeat = 1 }));
    }
}
