using Microsoft.AspNetCore.Http.HttpResults;
using SyncData.Shared;

namespace SyncDataSource.Runs;

/// <summary>
/// A run's life at the source, by named requests (docs/endpoints.md): begin opens the measurement window (after the
/// previous run's baseline collection) and the run's snapshot; end closes both and returns the figures; a failed
/// request of the run, or the idle timeout of a forgotten one, ends both at once.
/// </summary>
public sealed class SourceRuns
{
    private readonly RunMeasurement _measurement;
    private readonly RunSnapshots _snapshots;

    public SourceRuns(RunMeasurement measurement, RunSnapshots snapshots)
    {
        (_measurement, _snapshots) = (measurement, snapshots);
        _snapshots.Expired += _measurement.Abandon;
    }

    /// <summary>Begins <paramref name="run"/>; a run begins once (<see cref="RunConflictException"/>).</summary>
    public async Task<SourceSnapshot> BeginAsync(Guid run)
    {
        if (!await _measurement.BeginAsync(run))
        {
            throw RunConflictException.Again(run);
        }

        try
        {
            return await _snapshots.OpenAsync(run);
        }
        catch (Exception ex)
        {
            _measurement.Abandon(run, $"its snapshot could not be opened: {ex.GetType().Name}");
            throw;
        }
    }

    /// <summary>Begins <paramref name="run"/> as a measurement window only (a --follow window), no snapshot; once, as a run.</summary>
    public async Task<NoContent> BeginWindowAsync(Guid run) =>
        await _measurement.BeginAsync(run) ? TypedResults.NoContent() : throw RunConflictException.Again(run);

    /// <summary>Ends <paramref name="run"/>: the window closes first, so ending the snapshot is in no figure.</summary>
    public async Task<SourceRunEnd> EndAsync(Guid run)
    {
        var (figures, missing) = _measurement.Close(run);
        var snapshot = await _snapshots.EndAsync(run, "the run ended");
        return new SourceRunEnd(figures, missing, snapshot);
    }

    /// <summary>A request of <paramref name="run"/> failed: no more of its requests are served, and its figures are given up.</summary>
    public async Task FailAsync(Guid run, string why)
    {
        _measurement.Abandon(run, why);
        await _snapshots.EndAsync(run, why);
    }
}
