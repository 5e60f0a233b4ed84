using SyncDataBenchmark.Runner.Budget;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// What a session measured, in the order measured: appended to, never changed. results.json is built from it
/// (ResultsFile.Build), and every report from results.json.
/// </summary>
public sealed class SessionMeasurements
{
    private readonly List<CombinationRun> _runs = [];
    private readonly List<PeerRun> _peerRuns = [];
    private readonly List<string> _problems = [];
    private readonly List<SkippedCase> _skipped = [];
    private readonly List<SkippedPeer> _skippedPeers = [];
    private readonly Dictionary<long, double?> _seedMs = [];
    private readonly List<TriggerCost> _triggerCosts = [];
    private readonly List<BudgetedCase> _budgeted = [];
    private readonly List<string> _budgetNotes = [];

    public IReadOnlyList<CombinationRun> Runs => _runs;
    public IReadOnlyList<PeerRun> PeerRuns => _peerRuns;
    /// <summary>Failures outside any single run (a service restarted, a link's lab that could not be set up).</summary>
    public IReadOnlyList<string> Problems => _problems;
    /// <summary>Cases a sweep skipped at a size, predicted past --max-run-seconds.</summary>
    public IReadOnlyList<SkippedCase> Skipped => _skipped;
    /// <summary>Peers left out because the server cannot run them (their precondition), with why.</summary>
    public IReadOnlyList<SkippedPeer> SkippedPeers => _skippedPeers;
    /// <summary>Seeding time per size (null: an existing seed of that size was reused); the first link's.</summary>
    public IReadOnlyDictionary<long, double?> SeedMs => _seedMs;

    /// <summary>--changed: what change tracking costs the source's writers, per table and share (TriggerCostProbe).</summary>
    public IReadOnlyList<TriggerCost> TriggerCosts => _triggerCosts;

    /// <summary>Cases the budget's plan measured once or left out, with why (BudgetPlanner).</summary>
    public IReadOnlyList<BudgetedCase> Budgeted => _budgeted;

    /// <summary>What the budget decided as the session went: each size's plan, and a round not started for want of time.</summary>
    public IReadOnlyList<string> BudgetNotes => _budgetNotes;

    public void Add(BudgetedCase budgeted) => _budgeted.Add(budgeted);
    public void AddBudgetNote(string note) => _budgetNotes.Add(note);

    /// <summary>The budget's decision on <paramref name="item"/>'s case at its size across <paramref name="link"/>; null: its full runs.</summary>
    public BudgetedCase? BudgetOf(PlanItem item, string link) => _budgeted.LastOrDefault(b => b.Case == item.Key && b.Rows == item.Rows && b.Link == link);

    public void Add(TriggerCost cost) => _triggerCosts.Add(cost);
    public void Add(CombinationRun run) => _runs.Add(run);
    public void Add(PeerRun run) => _peerRuns.Add(run);
    public void Add(SkippedCase skipped) => _skipped.Add(skipped);
    public void Add(SkippedPeer skipped) => _skippedPeers.Add(skipped);
    public void AddProblem(string problem) => _problems.Add(problem);
    public void AddSeed(long rows, double? ms) => _seedMs.TryAdd(rows, ms);

    /// <summary>The item's case's best verified timed run at each size measured across <paramref name="link"/>.</summary>
    public List<(long Rows, double Ms)> BestTimesBySize(PlanItem item, string link)
    {
        IEnumerable<(long? Rows, double? Ms)> times = item.Combination is not null
            ? _runs.Where(r => r.Case == item.Case && r.Profile == item.Profile.Name && r.Link == link && r.Ok && !r.Warmup).Select(r => (r.SourceRows, r.Result!.DurationMs))
            : _peerRuns.Where(r => r.Peer == item.Peer!.Key && r.Table == item.Table.Name && r.ChangedShare == item.Share && r.Link == link && r.Ok && !r.Warmup).Select(r => (r.SourceRows, r.DurationMs));
        return times.Where(t => t.Rows is not null && t.Ms is not null)
            .GroupBy(t => t.Rows!.Value)
            .Select(g => (g.Key, g.Min(t => t.Ms!.Value)))
            .ToList();
    }
}
