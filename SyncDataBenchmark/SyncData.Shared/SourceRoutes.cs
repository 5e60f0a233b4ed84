using System.Globalization;

namespace SyncData.Shared;

/// <summary>SyncDataSource's routes that are not a fetch approach's own (each fetch declares or derives its own).</summary>
public static class SourceRoutes
{
    public const string Summary = "users/summary";

    /// <summary>
    /// The header on every request SomeService makes for a run, carrying the run's id. SyncDataSource measures itself
    /// over the requests of one run (its first fetch request opens the window; the run's summary request, its last,
    /// closes it and carries the figures back in <see cref="SourceSummary"/>), so measuring needs no endpoint of its own.
    /// </summary>
    public const string RunHeader = "X-Sync-Run";

    /// <summary>The path of a fetch that declares no route of its own: derived from its name, the same on both halves.</summary>
    public static string Of(string fetchName) => "users/" + fetchName;

    /// <summary>A fetch's route with the paging query parameters it takes (invariant culture: numbers never localise).</summary>
    public static string WithQuery(string route, FormattableString query) =>
        route + "?" + query.ToString(CultureInfo.InvariantCulture);
}
