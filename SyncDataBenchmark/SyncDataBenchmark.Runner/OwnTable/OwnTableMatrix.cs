using SyncData.Postgres;
using SyncData.Postgres.Catalog;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The matrix on a user's table (docs/own-table.md), decided and said before any run: the cases that can carry it
/// (<see cref="DescribedTableReach"/>, the rule SomeService refuses by), every other case named with why, the peers that only read, one
/// size (the table as it is), and a first guess at a run's time for the budget's plan.
/// </summary>
public static class OwnTableMatrix
{
    /// <summary>
    /// Bytes of table (heap and TOAST) per second of a whole run here, everything in: the target emptied, the move, both
    /// services' checksums over every column and the runner's own read of the target. Measured on this 2-core machine
    /// on Fixtures/team-table.sql's table grown to 500,004 rows (120 MB): 8 runs in 2 min 0 s, ~15 s each
    /// (docs/own-table.md). The checksum reads every value through its send function and md5s every row, so it, not
    /// the COPY, takes much of a run.
    /// </summary>
    private const double BytesPerSecond = 8e6;

    /// <summary><paramref name="settings"/> narrowed to what can run on <paramref name="table"/>, holding <paramref name="rows"/> rows, with everything left out said.</summary>
    public static BenchSettings Narrow(BenchSettings settings, SyncTable table, long rows, long bytes, Action<string> say)
    {
        if (settings.RowsGiven)
        {
            say($"--rows does not apply to your own table: the lab moves it whole, as it is ({rows:N0} rows).");
        }

        // Every line on what is left out goes to the record too (results.json's parameters.ownTable.leftOut, results.md).
        var leftOut = new List<string>();
        var tell = (string line) =>
        {
            leftOut.Add(line);
            say(line);
        };
        var selected = CaseNumbers.Runnable.Where(c => settings.Cases.Matches(c.Fetch, c.Insert))
            .Select(c => (Case: c, Why: BenchPlan.WhyNot(table, c)))
            .ToList();
        BenchPlan.SayNotCarried(table, selected.Select(s => s.Case), "your table", tell);

        // A merge carries the table (SomeService runs it when triggered), but the runner runs merges only with --changed,
        // which prepares a populated target from the change log that a user's database does not get.
        var merges = selected.Where(s => s.Why is null && s.Case.Merges).Select(s => s.Case).ToList();
        if (merges.Count > 0)
        {
            tell($"Not run on your table by the runner: {string.Join(", ", merges.Select(c => $"{c.Fetch} × {c.Insert}"))}: it merges into a populated target, " +
                "which the runner prepares only under --changed (the change log, not installed on your database); SomeService carries it when triggered (docs/own-table.md).");
        }

        var carried = selected.Where(s => s.Why is null && !s.Case.Merges).Select(s => s.Case).ToList();
        var peers = Peers(settings, table, tell);
        if (carried.Count == 0)
        {
            throw new InvalidOperationException($"No selected case can carry {table.SqlName} (--cases {string.Join(',', settings.Cases.Patterns)}).");
        }

        var cases = CaseSelection.Parse(carried.Select(c => $"{c.Fetch}:{c.Insert}"), out _);
        var profiled = carried.Where(c => settings.ProfileCases.Matches(c.Fetch, c.Insert)).ToList();
        var narrowed = settings with
        {
            Tables = [table], Sizes = [rows], Cases = cases, Peers = peers.Count > 0, PeerKeys = peers, OwnTableLeftOut = leftOut,
            ProfileCases = profiled.Count > 0 ? CaseSelection.Parse(profiled.Select(c => $"{c.Fetch}:{c.Insert}"), out _) : cases,
            Profiles = profiled.Count > 0 ? settings.Profiles : [settings.MainProfile],
        };
        say($"Your table: {bytes / 1e6:N0} MB (pg_table_size); each run guessed at ~{RunSeconds(bytes):N0} s ({BytesPerSecond / 1e6:N0} MB of table a second, as a 120 MB table " +
            "took here) until the first runs are timed: the plan below says what that costs.");
        return narrowed;
    }

    /// <summary>
    /// The peers that run on the user's table: those selected that only read the source (<see cref="PeerDefinition.ReadsSourceOnly"/>:
    /// the psql pipes, pgcopydb's copy), reaching it read only as the services do; the rest named with why.
    /// </summary>
    private static List<string> Peers(BenchSettings settings, SyncTable table, Action<string> tell)
    {
        var selected = PeerDefinition.All.Where(p => settings.RunsPeer(p.Key)).ToList();
        if (table.SqlName.Contains('\'', StringComparison.Ordinal) || table.Columns.Contains('\'', StringComparison.Ordinal))
        {
            tell($"Not run on your table: the peers: {table.SqlName} or a column's name holds a single quote, which their shell scripts cannot carry.");
            return [];
        }

        var others = selected.Where(p => !p.ReadsSourceOnly).Select(p => p.Key).ToList();
        if (others.Count > 0)
        {
            tell($"Not run on your table: the peers {string.Join(", ", others)}: they would install on your database a publication and a slot (logical replication), " +
                 "or a helper postgres_fdw's copy reads, or they need the change log (the change peers).");
        }

        return [.. selected.Where(p => p.ReadsSourceOnly).Select(p => p.Key)];
    }

    /// <summary>One run's seconds on a table of <paramref name="bytes"/>, everything in, before any has run: the budget's guess (Budget.CostModel).</summary>
    public static double RunSeconds(long bytes) => Math.Max(1, bytes / BytesPerSecond);
}
