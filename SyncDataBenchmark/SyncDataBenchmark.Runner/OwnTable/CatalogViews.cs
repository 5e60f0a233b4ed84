using SyncData.Postgres;
using SyncData.Postgres.Catalog;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The lab's tables moved as it moves a table it has no classes for: the catalog views public.users and public.orders
/// (<see cref="SyncTable.CatalogViewOf"/>: the same rows as users and orders, so each case's generated row classes are
/// measured against its written ones, results.md's "Generated row classes against written ones") and the folder tables
/// (SyncData.Harness.LabTables). Said before the first run: what they are, and which selected cases cannot carry them
/// (<see cref="DescribedTableReach"/>, the rule SomeService refuses by and the plan keeps to).
/// </summary>
public static class CatalogViews
{
    /// <summary><paramref name="settings"/> with the lab's described tables, each one's left-out cases said.</summary>
    public static BenchSettings Described(BenchSettings settings, IReadOnlyList<SyncTable> tables, Action<string> say)
    {
        foreach (var table in tables.Where(t => t.Description is not null))
        {
            say($"{table.Name}: " + (table.Behind is { } behind ? $"the rows of {behind.Name}, " : "a lab table defined by its folder, ") +
                "described from each database's catalog and written through row classes SomeService generates from it, verified by a checksum over every " +
                "column's binary form; no peer runs on it.");
            BenchPlan.SayNotCarried(table, CaseNumbers.Runnable.Where(c => !c.Merges && settings.Cases.Matches(c.Fetch, c.Insert)), table.Name, say);
        }

        return settings with { Tables = tables };
    }
}
