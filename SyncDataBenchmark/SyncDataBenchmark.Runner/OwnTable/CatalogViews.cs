using SyncData.Postgres;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// --table public.users, public.orders (<see cref="SyncTable.CatalogViewOf"/>): the lab's own tables moved as it moves a
/// table it has no classes for, beside users and orders in the same session, so each case's generated row classes are
/// measured against its written ones (results.md, "Generated row classes against written ones"). Said before the first
/// run: what they are, and which selected cases cannot carry them (<see cref="BenchPlan.Carries"/>, the rule SomeService
/// refuses by).
/// </summary>
public static class CatalogViews
{
    /// <summary><paramref name="settings"/> with the lab's described tables, each view's left-out cases said.</summary>
    public static BenchSettings Described(BenchSettings settings, IReadOnlyList<SyncTable> tables, Action<string> say)
    {
        foreach (var view in tables.Where(t => t.Behind is not null))
        {
            say($"{view.Name}: the rows of {view.Behind!.Name}, described from each database's catalog and written through row classes SomeService generates from it, " +
                "verified by a checksum over every column's binary form; no peer runs on it.");
            var left = CaseNumbers.Runnable.Where(c => !c.Merges && settings.Cases.Matches(c.Fetch, c.Insert) && !BenchPlan.Carries(view, c)).ToList();
            if (left.Count > 0)
            {
                say($"Not run on {view.Name} (no generated classes on that path yet): {string.Join(", ", left.Select(c => $"{c.Fetch} × {c.Insert}"))}.");
            }
        }

        return settings with { Tables = tables };
    }
}
