using SomeService.Fetch;
using SomeService.Sync;
using SyncData.Measurement;
using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>
/// Both services' measurement window over a --follow run's load and catch-up (<see cref="SyncRoutes.FollowWindow"/>).
/// It holds the sync runner's gate while open, so it never opens over a sync run and no sync run starts inside it (each
/// would reopen the one RuntimeWindow under the other): both are refused, 409, named. SomeService's window opens as a
/// sync run's does (a baseline collection, then open), SyncDataSource's as a run begun without a snapshot; the close
/// stops SomeService's first, then ends the source's, so that request is in neither figure.
/// </summary>
public sealed class FollowWindow(SyncRunner runner, RuntimeWindow window, IServiceProvider services, ILogger<FollowWindow> logger)
{
    private readonly Lock _lock = new();
    private Opened? _open;

    private sealed record Opened(Guid Id, DateTimeOffset At, RuntimeSnapshot Start, string? SourceMissing);

    public static IEndpointRouteBuilder Map(IEndpointRouteBuilder app)
    {
        var route = "/" + SyncRoutes.FollowWindow;
        app.MapPost(route, (FollowWindow followWindow, CancellationToken ct) => followWindow.OpenAsync(ct));
        app.MapDelete(route, (FollowWindow followWindow) => followWindow.CloseAsync());
        return app;
    }

    /// <summary>The open window named, for a refused sync run; null when none is open.</summary>
    public string? Describe() => _open is { } open ? $"Follow window {open.Id} has been open since {open.At:O}" : null;

    private async Task<IResult> OpenAsync(CancellationToken ct)
    {
        if (!runner.TryHold())
        {
            var why = Describe() ?? "A sync run is in progress (GET /sync/runs); a follow window would reopen its measurement window under it";
            return Results.Problem(why + ".", statusCode: StatusCodes.Status409Conflict, title: "The follow window cannot open");
        }

        var id = Guid.CreateVersion7();
        var start = window.Start();
        string? sourceMissing = null;
        try
        {
            await services.GetRequiredService<SourceClient>().BeginWindowAsync(id, ct);
        }
        catch (Exception ex) when (ex is SourceStreamException or HttpRequestException)
        {
            // Measuring never fails the follow run: the source's figures are missing, and say why.
            sourceMissing = $"SyncDataSource did not open its window: {ex.Message}";
            logger.LogWarning(ex, "Follow window {Id}: SyncDataSource did not open its window", id);
        }
        catch
        {
            // Cancelled (the caller went away): nothing stays open, and sync runs may start again.
            window.Stop(TimeSpan.Zero);
            runner.Release();
            throw;
        }

        lock (_lock)
        {
            _open = new Opened(id, DateTimeOffset.UtcNow, start, sourceMissing);
        }

        return Results.Json(id, statusCode: StatusCodes.Status201Created);
    }

    private async Task<IResult> CloseAsync()
    {
        Opened open;
        lock (_lock)
        {
            if (_open is null)
            {
                return Results.Problem("No follow window is open (POST opens one).", statusCode: StatusCodes.Status404NotFound);
            }

            (open, _open) = (_open, null);
        }

        try
        {
            var figures = ServiceFigures.Between(open.Start, window.Stop());
            var (source, missing) = open.SourceMissing is { } why ? (null, why) : await EndAtSourceAsync(open.Id);
            return Results.Json(new FollowWindowFigures(open.Id, figures, source, missing), SyncJsonContext.Default.FollowWindowFigures);
        }
        finally
        {
            runner.Release();
        }
    }

    private async Task<(ServiceFigures? Figures, string? Missing)> EndAtSourceAsync(Guid id)
    {
        try
        {
            var ended = await services.GetRequiredService<SourceClient>().EndRunAsync(id, CancellationToken.None);
            return (ended.Figures, ended.FiguresMissing);
        }
        catch (Exception ex) when (ex is SourceStreamException or HttpRequestException)
        {
            logger.LogWarning(ex, "Follow window {Id}: ending it at SyncDataSource failed", id);
            return (null, $"ending the window at SyncDataSource failed: {ex.Message}");
        }
    }
}
