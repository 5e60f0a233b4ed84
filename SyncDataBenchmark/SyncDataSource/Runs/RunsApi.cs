using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Primitives;
using SyncData.Shared;

namespace SyncDataSource.Runs;

/// <summary>A run's begin and end (<see cref="SourceRoutes.Run"/>), and the requests that name a run (<see cref="SourceRoutes.RunHeader"/>).</summary>
public static class RunsApi
{
    public static IServiceCollection AddSourceRuns(this IServiceCollection services)
    {
        services.AddOptions<RunSnapshotOptions>().BindConfiguration(RunSnapshotOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        return services.AddSingleton<RunMeasurement>().AddSingleton<RunSnapshots>().AddSingleton<SourceRuns>();
    }

    public static IEndpointRouteBuilder MapRunsApi(this IEndpointRouteBuilder app)
    {
        var run = app.MapGroup("/" + SourceRoutes.Runs + "/{id:guid}");
        run.MapPost("/", Begin);
        run.MapDelete("/", End);
        run.MapPost("/alive", KeepAlive);
        return app;
    }

    /// <summary>
    /// A request naming a run reads in its snapshot; one of a run that is not open is refused (409, with why), and one
    /// that throws or is refused (≥ 400) ends its run at once: holding the snapshot (a connection and an open
    /// transaction) until the idle timeout would let failing runs exhaust the server's connections. Not an aborted one
    /// that completed: a consumer may close a stream it has read to the end before the server has finished with it.
    /// </summary>
    public static IApplicationBuilder UseSourceRuns(this IApplicationBuilder app)
    {
        // Created now: the measurement's startup baseline collection starts with the service, not with the first run.
        var runs = app.ApplicationServices.GetRequiredService<SourceRuns>();
        return app.Use(async (http, next) =>
        {
            if (!http.Request.Headers.TryGetValue(SourceRoutes.RunHeader, out var header))
            {
                await next(http);
                return;
            }

            // A header that names no run must not be read as "no run": the request would get a full answer read
            // outside any run's snapshot, and the caller would never learn its header was ignored.
            if (RunOf(http.Request) is not { } run)
            {
                await MalformedRunHeader(header.ToString()).ExecuteAsync(http);
                return;
            }

            try
            {
                await next(http);
            }
            catch (RunConflictException ex) when (!http.Response.HasStarted)
            {
                await Conflict(ex).ExecuteAsync(http);
                return;
            }
            catch (Exception ex)
            {
                await runs.FailAsync(run, $"a request of the run failed ({ex.GetType().Name})");
                throw;
            }

            if (http.Response.StatusCode >= 400)
            {
                await runs.FailAsync(run, $"a request of the run was answered {http.Response.StatusCode}");
            }
        });
    }

    /// <summary>The run a request belongs to, or null when it carries no (valid) <see cref="SourceRoutes.RunHeader"/>.</summary>
    public static Guid? RunOf(HttpRequest request) =>
        request.Headers.TryGetValue(SourceRoutes.RunHeader, out StringValues value) && Guid.TryParse(value.ToString(), out var run) ? run : null;

    /// <summary>POST runs/{id}: waits for the previous run's baseline collection, then opens the window and the snapshot (with snapshot=false the window only: 204).</summary>
    private static async Task<Results<Ok<SourceSnapshot>, NoContent, ProblemHttpResult>> Begin(Guid id, bool? snapshot, SourceRuns runs)
    {
        try
        {
            return snapshot == false ? await runs.BeginWindowAsync(id) : TypedResults.Ok(await runs.BeginAsync(id));
        }
        catch (RunConflictException ex)
        {
            return Conflict(ex);
        }
    }

    /// <summary>POST runs/{id}/alive: the run's idle clock starts again (204); 409 with why when its snapshot is not open.</summary>
    private static Results<NoContent, ProblemHttpResult> KeepAlive(Guid id, RunSnapshots snapshots)
    {
        try
        {
            snapshots.KeepAlive(id);
            return TypedResults.NoContent();
        }
        catch (RunConflictException ex)
        {
            return Conflict(ex);
        }
    }

    /// <summary>DELETE runs/{id}: closes the window, ends the snapshot, answers the figures (or why there are none).</summary>
    private static async Task<Ok<SourceRunEnd>> End(Guid id, SourceRuns runs) => TypedResults.Ok(await runs.EndAsync(id));

    private static ValidationProblem MalformedRunHeader(string value) =>
        TypedResults.ValidationProblem(
            new Dictionary<string, string[]>
            {
                [SourceRoutes.RunHeader] = [$"'{QueryParameter.Truncate(value)}' is not a run id: {SourceRoutes.RunHeader} takes the GUID a run was begun with (POST /{SourceRoutes.Runs}/{{id}}), or is left out."],
            },
            title: "Malformed run header");

    private static ProblemHttpResult Conflict(RunConflictException ex) =>
        TypedResults.Problem(ex.Message, statusCode: StatusCodes.Status409Conflict, title: "The run is not open at SyncDataSource, or was begun before");
}
