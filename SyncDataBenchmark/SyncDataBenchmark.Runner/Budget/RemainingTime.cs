namespace SyncDataBenchmark.Runner.Budget;

/// <summary>
/// What runs still to come are expected to take, as the progress line and the budget's checks count them: each item's
/// run, a case's warm-ups once before its first run in a service process (none while it is warm), and a restart of both
/// services at each change of profile, after which nothing is warm. Arithmetic only: the session gives the costs.
/// </summary>
public static class RemainingTime
{
    /// <summary>Seconds <paramref name="sequence"/> is expected to take, in its order, from services under <paramref name="profile"/> where <paramref name="warm"/> (keys) have run.</summary>
    public static double Seconds(IEnumerable<PlanItem> sequence, RunCosts costs, string? profile, IReadOnlySet<string> warm)
    {
        var warmed = new HashSet<string>(warm);
        var seconds = 0.0;
        foreach (var item in sequence)
        {
            if (profile is not null && item.Profile.Name != profile)
            {
                seconds += costs.Restart;
                warmed.Clear();
            }

            profile = item.Profile.Name;
            seconds += (warmed.Add(item.Key) ? costs.Warmups(item) : 0) + costs.Run(item);
        }

        return seconds;
    }

    /// <summary>
    /// The size's minimum still to run, in the order it will run: the current round's items left, then each case's timed
    /// runs short of its minimum (<paramref name="minimumLeft"/>, less those in the round), phase by phase in
    /// <paramref name="phases"/>' order. The close calls the budget's slack may buy are not in it: they are not planned.
    /// </summary>
    public static IEnumerable<PlanItem> Minimum(IReadOnlyList<PlanItem> roundLeft, IEnumerable<PlanItem> all, Func<PlanItem, int> minimumLeft, IReadOnlyList<string> phases)
    {
        var inRound = roundLeft.GroupBy(i => i.Key).ToDictionary(g => g.Key, g => g.Count());
        var beyond = all.Select(i => (Item: i with { Index = 0 }, Runs: minimumLeft(i) - inRound.GetValueOrDefault(i.Key)))
            .Where(x => x.Runs > 0)
            .OrderBy(x => phases.ToList().IndexOf(x.Item.Profile.Name) is var p && p < 0 ? int.MaxValue : p)
            .SelectMany(x => Enumerable.Repeat(x.Item, x.Runs));
        return roundLeft.Concat(beyond);
    }
}
