using System.Globalization;

namespace SyncData.Shared;

/// <summary>SyncDataSource's routes that are not a fetch approach's own (each fetch declares or derives its own).</summary>
public static class SourceRoutes
{
    /// <summary>
    /// The users table's count and checksum (<see cref="InTable"/> gives another table's); read in the run's snapshot
    /// when the request names a run (<see cref="RunHeader"/>).
    /// </summary>
    public const string Checksum = "users/checksum";

    /// <summary>
    /// The keys of the users table deleted since the watermark <see cref="Since"/> names (<see cref="InTable"/> gives
    /// another table's): a JSON array of strings, each key as PostgreSQL prints it (uuid, bigint); read in the run's
    /// snapshot when the request names a run.
    /// </summary>
    public const string Deleted = "users/deleted";

    /// <summary>
    /// The query parameter of a change fetch and of <see cref="Deleted"/>: the consumer's watermark, a source snapshot as
    /// pg_current_snapshot() prints it ("xmin:xmax:xip,…"); what changed since is what that snapshot does not see.
    /// </summary>
    public const string Since = "since";

    /// <summary><paramref name="route"/> asking for what changed since <paramref name="watermark"/>.</summary>
    public static string ChangedSince(string route, string watermark) => $"{route}?{Since}={Uri.EscapeDataString(watermark)}";

    /// <summary>
    /// A source route for <paramref name="table"/>: every declared route (a fetch's, <see cref="Checksum"/>) is the users
    /// table's, its first segment the table's name; another table's is the same path under its own name
    /// ("users/keyset" → "orders/keyset"). A described table's name (a team's own, e.g. "Team Sales"."Order Lines")
    /// is escaped into its one segment; SyncDataSource maps those at <see cref="AnyTable"/>.
    /// </summary>
    public static string InTable(string route, string table) => Uri.EscapeDataString(table) + route[route.IndexOf('/')..];

    /// <summary>The route template of <paramref name="route"/> for any table the source's catalog describes: its table segment a route parameter, "table".</summary>
    public static string AnyTable(string route) => "{table}" + route[route.IndexOf('/')..];

    /// <summary>
    /// A run at the source: POST begins it (waits for the previous run's baseline collection, opens the source's
    /// measurement window and the run's snapshot, answers the <see cref="SourceSnapshot"/>); DELETE ends both and
    /// answers the source's figures (<see cref="SourceRunEnd"/>).
    /// </summary>
    public static string Run(Guid id) => $"{Runs}/{id}";

    /// <summary>POST: the run's consumer is still at work (writing what it read), so its snapshot must not end idle.</summary>
    public static string RunAlive(Guid id) => $"{Runs}/{id}/alive";

    /// <summary>POST: a measurement window only, no snapshot (a --follow window: it reads nothing, and a snapshot held over the load would hold back the source's vacuum).</summary>
    public static string WindowOnly(Guid id) => $"{Runs}/{id}?snapshot=false";

    public const string Runs = "runs";

    /// <summary>The header naming the run a fetch or checksum request belongs to; the consumer sets it on each request of a run.</summary>
    public const string RunHeader = "X-Sync-Run";

    /// <summary>The path of a fetch that declares no route of its own: derived from its name, the same on both halves.</summary>
    public static string Of(string fetchName) => "users/" + fetchName;

    /// <summary>A fetch's route with the paging query parameters it takes (invariant culture: numbers never localise).</summary>
    public static string WithQuery(string route, FormattableString query) =>
        route + "?" + query.ToString(CultureInfo.InvariantCulture);
}
