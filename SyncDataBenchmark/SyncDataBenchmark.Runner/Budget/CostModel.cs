namespace SyncDataBenchmark.Runner.Budget;

/// <summary>
/// What one item (a warm-up or a timed run, with the runner's untimed work around it; the two apart) is expected to
/// take: its own mean once it has run in this session; before that its prior (<see cref="PriorCosts"/>) times how much slower or
/// faster this machine is today than the priors (the median over the items run so far of measured over prior); a case
/// with no prior (a table the records never held) the <paramref name="fallback"/>'s guess, else the median known case's.
/// </summary>
public sealed class CostModel(PriorCosts priors, Func<PlanItem, double?>? fallback = null)
{
    /// <summary>
    /// The runner's own work around a request (the target emptied, a sentinel planted, both checksums read) per million
    /// rows and a fixed part: the committed full run of c0fab71 took 4,262 s for 208 items whose requests took 4,048 s.
    /// </summary>
    public const double OverheadSecondsPerMillionRows = 1.0;
    public const double OverheadSeconds = 0.15;

    /// <summary>A restart of both services under another profile, until this session has timed one.</summary>
    public const double DefaultRestartSeconds = 10;

    private readonly Dictionary<string, List<(long Rows, double Seconds)>> _measured = [];
    private readonly List<double> _speed = [];
    private readonly List<double> _restarts = [];

    /// <summary>How much longer than their priors the items run so far took (median); 1 before any.</summary>
    public double Speed => _speed.Count == 0 ? 1 : Report.Statistics.Median(_speed)!.Value;

    /// <summary>Whether the item's case has a prior, or has run here.</summary>
    public bool Known(PlanItem item) => _measured.ContainsKey(KeyOf(item)) || Prior(item) is not null;

    /// <summary>
    /// Seconds one of <paramref name="item"/>'s runs is expected to take, everything in: its own mean at its size; at
    /// a size it has not run at (a sweep) its own at the nearest, in proportion to the rows; else its prior.
    /// </summary>
    public double Seconds(PlanItem item)
    {
        if (_measured.TryGetValue(KeyOf(item), out var own))
        {
            var here = own.Where(m => m.Rows == item.Rows).ToList();
            if (here.Count > 0)
            {
                return here.Average(m => m.Seconds);
            }

            var nearest = own.MinBy(m => Math.Abs(Math.Log((double)m.Rows / item.Rows)));
            return nearest.Seconds * item.Rows / nearest.Rows;
        }

        if ((Prior(item) ?? fallback?.Invoke(item)) is { } prior)
        {
            return prior * Speed;
        }

        var known = _measured.Values.SelectMany(v => v.Where(m => m.Rows == item.Rows)).Select(m => m.Seconds).ToList();
        return known.Count > 0 ? Report.Statistics.Median(known)!.Value : 1 + Overhead(item.Rows);
    }

    /// <summary>Seconds a restart of both services takes.</summary>
    public double RestartSeconds => _restarts.Count == 0 ? DefaultRestartSeconds : _restarts.Average();

    /// <summary>
    /// One item's whole time, as the session spent it. Only timed runs against a prior measured at their own size tell
    /// today's speed: a warm-up's time is mostly compiling (a fresh process's first has no like in the priors), and a
    /// prior scaled from another size in proportion to the rows leaves out what a run costs whatever its rows. At 12,345
    /// rows, from priors at 1,000,000, either put the speed at about 3 and the minimum left at 5 to 10 minutes for under
    /// 2 minutes of runs.
    /// </summary>
    public void Record(PlanItem item, TimeSpan elapsed)
    {
        if (!item.Warmup && PriorOf(item) is ({ } prior, true) && prior > 0)
        {
            _speed.Add(elapsed.TotalSeconds / prior);
        }

        if (!_measured.TryGetValue(KeyOf(item), out var list))
        {
            _measured[KeyOf(item)] = list = [];
        }

        list.Add((item.Rows, elapsed.TotalSeconds));
    }

    public void RecordRestart(TimeSpan elapsed) => _restarts.Add(elapsed.TotalSeconds);

    /// <summary>
    /// The item's prior; without one for its key, its plain pair's (Fetch:Insert or the peer, on users, into an emptied
    /// target, under its profile): a changed share or a coding the records never held costs at least about a reload.
    /// </summary>
    private double? Prior(PlanItem item) => PriorOf(item)?.Seconds;

    /// <summary>The item's prior as <see cref="Prior"/> finds it, and whether it was measured at the item's size.</summary>
    private (double Seconds, bool AtSize)? PriorOf(PlanItem item)
    {
        foreach (var key in new[] { item.Key, CaseIdentity.Profiled(item.Identity.Pair, item.MainProfile ? null : item.Profile.Name) })
        {
            if (priors.RequestSeconds(key, item.Rows, item.Warmup) is { } request)
            {
                return (request + Overhead(item.Rows), priors.HasSize(key, item.Rows));
            }
        }

        return null;
    }

    /// <summary>A case's warm-ups are timed apart from its timed runs (PlanItem.AsWarmup): the first run in a process compiles.</summary>
    private static string KeyOf(PlanItem item) => item.Warmup ? item.Key + " (warm-up)" : item.Key;

    private static double Overhead(long rows) => OverheadSeconds + OverheadSecondsPerMillionRows * rows / 1e6;
}
