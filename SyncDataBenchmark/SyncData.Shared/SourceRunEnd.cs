namespace SyncData.Shared;

/// <summary>
/// SyncDataSource's answer to the end of a run (<see cref="SourceRoutes.Run"/>, DELETE): what serving the run cost the
/// source, or why there are no figures, and the snapshot the run read in.
/// </summary>
/// <param name="Figures">The source's figures from the run's begin to its end; null, see <paramref name="FiguresMissing"/>.</param>
/// <param name="FiguresMissing">Why the run has no source figures (its window was never opened, or not cleanly, or given up).</param>
/// <param name="Snapshot">The snapshot the run read the source in; null when none was held for it.</param>
public sealed record SourceRunEnd(ServiceFigures? Figures, string? FiguresMissing, SourceSnapshot? Snapshot);
