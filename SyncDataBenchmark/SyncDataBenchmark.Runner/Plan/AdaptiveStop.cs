using Perfolizer.Mathematics.Common;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Whether a case wants another timed run, from what the record holds of it at its size across one link: at least
/// --repeat runs (one for a case the budget measures once); then more only while it is a close call (Kalibera and
/// Jones: runs where the variance decides something): not yet told apart by the test from every other case of its table
/// and profile, and the interval of its median/median ratio to the psql binary pipe (its own median's, without the pipe)
/// wider than --ci-width; and never past --case-budget seconds, --max-repeat runs or two failures. A run flagged as still
/// compiling does not count and is replaced, where runs are compared (<see cref="Compared"/>); below the test's five runs
/// a side it counts, flagged, and no close call runs on. The pipe runs as long as any case of its table and share does.
/// </summary>
public sealed class AdaptiveStop(BenchSettings settings, SessionMeasurements record, string link)
{
    /// <summary>A case stops for good after this many failed timed runs.</summary>
    public const int MaxFailures = 2;

    /// <summary>Whether <paramref name="item"/> wants another run; <paramref name="round"/> the round's other items (the pipe's reason to go on).</summary>
    public bool Wants(PlanItem item, IReadOnlyList<PlanItem> round)
    {
        var own = Wants(item);
        if (item.Peer?.Key != PeerDefinition.PsqlBinaryKey || own || Of(item).Attempts >= settings.MaxRepeat)
        {
            return own;
        }

        return round.Any(i => i.Key != item.Key && i.MainProfile && i.Table == item.Table && i.Share == item.Share && Wants(i));
    }

    /// <summary>Whether the case itself, judged alone, wants another run.</summary>
    public bool Wants(PlanItem item)
    {
        var runs = Of(item);
        if (record.BudgetOf(item, link) is { Once: true })
        {
            return runs.Attempts == 0;
        }

        // Where runs are compared, one flagged as still compiling does not count and is replaced: up to --max-repeat
        // replacements more. Where nothing is compared, it counts as a run, flagged: a replacement would change no verdict.
        if (runs.Attempts >= settings.MaxRepeat + (Compared ? Math.Min(runs.Flagged, settings.MaxRepeat) : 0) || runs.Failures >= MaxFailures)
        {
            return false;
        }

        if (Counted(runs) < settings.Repeat)
        {
            return true;
        }

        // Below the test's runs a side, more runs past --repeat make no close call: there is no call.
        if (!Compared)
        {
            return false;
        }

        if (runs.SpentMs >= settings.CaseBudgetSeconds * 1000 || Apart(item, runs.Durations))
        {
            return false;
        }

        return Width(item, runs.Durations) is not { } width || width > settings.TargetWidth;
    }

    /// <summary>The timed runs <paramref name="item"/>'s case still needs of its minimum: --repeat less those that count, one for a case measured once.</summary>
    public int MinimumLeft(PlanItem item)
    {
        var runs = Of(item);
        return record.BudgetOf(item, link) is { Once: true } ? (runs.Attempts == 0 ? 1 : 0)
            : runs.Failures >= MaxFailures ? 0 : Math.Max(0, Math.Min(settings.Repeat, settings.MaxRepeat) - Counted(runs));
    }

    /// <summary>
    /// Whether a case's runs can be compared at all: --max-repeat reaches the test's <see cref="RunStatistics.MinTestRuns"/>
    /// a side. Below that every report says "too few runs to compare", so the session neither replaces runs still
    /// compiling nor runs close calls.
    /// </summary>
    public bool Compared => settings.MaxRepeat >= RunStatistics.MinTestRuns;

    /// <summary>The timed runs that count toward --repeat: the settled ones, and where nothing is compared the flagged too.</summary>
    private int Counted((IReadOnlyList<double> Durations, int Attempts, int Failures, int Flagged, double SpentMs) runs) =>
        runs.Durations.Count + (Compared ? 0 : runs.Flagged);

    /// <summary>
    /// Whether the test already tells <paramref name="item"/>'s combination apart from every other case measured beside
    /// it (its table, share and profile, the pipe included) with enough runs: more runs would change no verdict.
    /// </summary>
    public bool Apart(PlanItem item, IReadOnlyList<double> durations)
    {
        if (item.Combination is null)
        {
            return false;
        }

        var others = record.Runs.Where(r => r.Case != item.Case && r.Table == item.Table.Name && r.ChangedShare == item.Share && ProfileOf(r, item)
                && r.Link == link && r.SourceRows == item.Rows && r.Counts)
            .GroupBy(r => r.Case).Select(g => (IReadOnlyList<double>)[.. g.Select(r => r.Result!.DurationMs!.Value)])
            .Append(PipeOf(item))
            .Where(d => d.Count >= RunStatistics.MinTestRuns).ToList();
        return others.Count > 0 && others.All(o => RunStatistics.Compare(durations, o) is ComparisonResult.Greater or ComparisonResult.Lesser);
    }

    /// <summary>The width the case is judged by: its ratio's to the pipe, or its own median's without a pipe run.</summary>
    private double? Width(PlanItem item, IReadOnlyList<double> durations)
    {
        var pipe = PipeOf(item);
        if (item.Peer?.Key != PeerDefinition.PsqlBinaryKey && pipe.Count > 0)
        {
            return RunStatistics.Ratio(durations, pipe)?.Width;
        }

        return RunStatistics.MedianInterval(durations) is { } i && RunStatistics.Median(durations) is > 0 and var m ? (i.Upper - i.Lower) / m : null;
    }

    /// <summary>The run is under the item's profile; services someone else started (--someservice-url) record theirs as "external".</summary>
    private static bool ProfileOf(CombinationRun run, PlanItem item) =>
        run.Profile == item.Profile.Name || (item.MainProfile && run.Profile == BenchLab.ExternalProfile);

    private List<double> PipeOf(PlanItem item) =>
        [.. Peers(item.Rows).Where(r => r.Peer == PeerDefinition.PsqlBinaryKey && r.Table == item.Table.Name && r.ChangedShare == item.Share && r is { Ok: true, Warmup: false })
            .Select(r => r.DurationMs!.Value)];

    private IEnumerable<PeerRun> Peers(long rows) => record.PeerRuns.Where(r => r.Link == link && r.SourceRows == rows);

    private (IReadOnlyList<double> Durations, int Attempts, int Failures, int Flagged, double SpentMs) Of(PlanItem item)
    {
        List<(bool Ok, bool Flagged, double? Ms, double? WallMs)> runs = item.Combination is not null
            ? [.. record.Runs.Where(r => r.Case == item.Case && ProfileOf(r, item) && r.Link == link && r.SourceRows == item.Rows && !r.Warmup)
                .Select(r => (r.Ok, r.Unsettled == true, r.Result?.DurationMs, (double?)r.WallMs))]
            : [.. Peers(item.Rows).Where(r => r.Peer == item.Peer!.Key && r.Table == item.Table.Name && r.ChangedShare == item.Share && !r.Warmup)
                .Select(r => (r.Ok, false, r.DurationMs, r.WallMs))];
        var durations = runs.Where(r => r is { Ok: true, Flagged: false, Ms: not null }).Select(r => r.Ms!.Value).ToList();
        return (durations, runs.Count, runs.Count(r => !r.Ok), runs.Count(r => r is { Ok: true, Flagged: true }), runs.Sum(r => r.Ms ?? r.WallMs ?? 0));
    }
}
