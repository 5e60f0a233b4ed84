using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// Both services' spending over a --follow run's load and catch-up (docs/replication.md, "The --follow matrix"); a
/// service without figures says why. <see cref="NoProcess"/> for a mechanism no .NET process takes part in.
/// </summary>
public sealed record FollowCost(
    FollowServiceCost? SomeService,
    string? SomeServiceMissing,
    FollowServiceCost? SyncDataSource,
    string? SyncDataSourceMissing)
{
    /// <summary>The native subscription: PostgreSQL's walsender and apply worker do the work; neither service takes part.</summary>
    public static FollowCost NoProcess { get; } = new(null, NoDotNet, null, NoDotNet);

    public const string NoDotNet = "no .NET process takes part";

    /// <summary>A follow window's answer (SomeService's /follow-window).</summary>
    public static FollowCost Of(FollowWindowFigures window) =>
        new(FollowServiceCost.Of([window.SomeService]), null,
            window.SyncDataSource is { } source ? FollowServiceCost.Of([source]) : null, window.SyncDataSource is null ? window.SyncDataSourceMissing ?? "not answered" : null);

    /// <summary>The polled change log's sync runs within the window, each with both services' own run figures; a service lacking them in any run has none.</summary>
    public static FollowCost OfRuns(IReadOnlyList<RunResult> runs)
    {
        if (runs.Count == 0)
        {
            return new FollowCost(null, "no sync run completed within the window", null, "no sync run completed within the window");
        }

        static string? Lacking(IReadOnlyList<RunResult> runs, Func<RunResult, ServiceFigures?> figures) =>
            runs.Count(r => figures(r) is null) is var lacking and > 0 ? $"{lacking} of {runs.Count} sync runs had no figures" : null;

        var some = Lacking(runs, r => r.SomeService);
        var source = Lacking(runs, r => r.SyncDataSource);
        return new FollowCost(
            some is null ? FollowServiceCost.Of([.. runs.Select(r => r.SomeService!)]) : null, some,
            source is null ? FollowServiceCost.Of([.. runs.Select(r => r.SyncDataSource!)]) : null, source);
    }
}
