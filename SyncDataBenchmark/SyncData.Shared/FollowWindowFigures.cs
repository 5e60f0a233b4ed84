namespace SyncData.Shared;

/// <summary>
/// What both services spent while a --follow window was open (<see cref="SyncRoutes.FollowWindow"/>): each service's
/// own window, as a sync run's (docs/replication.md, "The --follow matrix").
/// </summary>
/// <param name="SomeService">SomeService's figures.</param>
/// <param name="SyncDataSource">SyncDataSource's figures over the same window (a run begun without a snapshot); null, see <paramref name="SyncDataSourceMissing"/>.</param>
public sealed record FollowWindowFigures(
    Guid Id,
    ServiceFigures SomeService,
    ServiceFigures? SyncDataSource,
    string? SyncDataSourceMissing);
