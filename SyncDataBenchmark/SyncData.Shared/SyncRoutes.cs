using System.Globalization;

namespace SyncData.Shared;

/// <summary>SomeService's routes, as the server maps them and its callers (the runner, the tests) call them.</summary>
public static class SyncRoutes
{
    public const string Sync = "sync";
    public const string Runs = "sync/runs";

    public static string Run(Guid id) => $"{Runs}/{id}";

    /// <summary>
    /// The one place the trigger's query string is written: GET /sync?f=&amp;i=[&amp;pageSize=&amp;batchSize=][&amp;wait=true][&amp;c=][&amp;table=].
    /// Names go as given (the service matches them case-insensitively), escaped; no <paramref name="compression"/>
    /// leaves c= out (the service's default, none), no <paramref name="table"/> leaves table= out (the service's
    /// default, <see cref="DefaultTable"/>).
    /// </summary>
    public static string Trigger(string fetch, string insert, int? pageSize = null, int? batchSize = null, bool wait = false, string? compression = null,
        string? table = null) =>
        $"{Sync}?f={Uri.EscapeDataString(fetch)}&i={Uri.EscapeDataString(insert)}"
        + (pageSize is { } p ? "&pageSize=" + p.ToString(CultureInfo.InvariantCulture) : "")
        + (batchSize is { } b ? "&batchSize=" + b.ToString(CultureInfo.InvariantCulture) : "")
        + (wait ? "&wait=true" : "")
        + (compression is { } c ? "&c=" + Uri.EscapeDataString(c) : "")
        + (table is { } t ? "&table=" + Uri.EscapeDataString(t) : "");

    /// <summary>
    /// NpgsqlReplication's follower of a table: POST /follow/{table}[?slot=&amp;batch=] starts it (resuming from the
    /// target's stored LSN, if any), GET answers its <see cref="FollowStatus"/>, DELETE[?drop=true] stops it (and drops
    /// the source's slot and publication).
    /// </summary>
    public const string Follow = "follow";

    /// <summary>
    /// Both services' measurement window over a --follow run's load and catch-up: POST opens it (409 while a sync run is
    /// in progress), DELETE closes it and answers the <see cref="FollowWindowFigures"/>; while it is open a sync run is refused (409).
    /// </summary>
    public const string FollowWindow = "follow-window";
    /// <summary>GET /follow/{table}/stages: the follower's <see cref="FollowStages"/>, where each applied transaction's lag went.</summary>
    public const string Stages = "stages";

    /// <summary>The table a trigger without table= moves (every run before the table dimension moved it).</summary>
    public const string DefaultTable = "users";
}
