using System.Globalization;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Npgsql;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>Trigger, inspect and cancel sync runs.</summary>
public static class SyncApi
{
    public static IEndpointRouteBuilder MapSyncApi(this IEndpointRouteBuilder app)
    {
        app.MapGet("/" + SyncRoutes.Sync, Trigger);
        var runs = app.MapGroup("/" + SyncRoutes.Runs);
        runs.MapGet("/", List);
        runs.MapGet("/{id:guid}", Find);
        runs.MapDelete("/{id:guid}", Cancel);
        return app;
    }

    /// <summary>
    /// GET /sync?f=&amp;i=[&amp;pageSize=&amp;batchSize=&amp;wait=true]: 202 with the run's location, or 200 with the finished
    /// run when wait=true. 400 names the valid values; 409 while another run is in progress.
    /// </summary>
    private static async Task<Results<Accepted<RunResult>, Ok<RunResult>, ValidationProblem, ProblemHttpResult>> Trigger(
        string? f, string? i, string? pageSize, string? batchSize, string? wait,
        SyncRunner runner, IOptions<SyncOptions> options, CancellationToken ct)
    {
        var settings = options.Value;
        var errors = new Dictionary<string, string[]>();
        var approaches = ApproachRegistry.Catalog;
        if (!approaches.TryParseFetch(f, out var fetch))
        {
            errors["f"] = [$"{Quote(f)} is not a fetch approach. Valid values: {approaches.FetchNames}."];
        }

        if (!approaches.TryParseInsert(i, out var insert))
        {
            errors["i"] = [$"{Quote(i)} is not an insert approach. Valid values: {approaches.InsertNames}."];
        }

        var pages = ParseNumber(pageSize, "pageSize", settings.DefaultPageSize, settings.MaxPageSize, errors);
        var batches = ParseNumber(batchSize, "batchSize", settings.DefaultBatchSize, settings.MaxBatchSize, errors);
        var waitForResult = false;
        if (wait is not null && !bool.TryParse(wait, out waitForResult))
        {
            errors["wait"] = [$"{Quote(wait)} is not valid for 'wait'. Valid values: true, false."];
        }

        if (errors.Count == 0 && approaches.Incompatibility(fetch, insert) is { } incompatible)
        {
            errors["i"] = [incompatible];
        }

        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors, title: "Invalid sync request");
        }

        SyncRunner.Started? started;
        try
        {
            started = await runner.TryStartAsync(new SyncRequest(fetch, insert, pages, batches), ct);
        }
        catch (Exception ex) when (ex is NpgsqlException or TimeoutException or System.Net.Sockets.SocketException)
        {
            return TypedResults.Problem($"SomeService's database is unreachable, so no run was started: {ex.Message}",
                statusCode: StatusCodes.Status503ServiceUnavailable, title: "Target database unavailable");
        }

        if (started is null)
        {
            return TypedResults.Problem("Another sync run is in progress; one run at a time keeps the figures honest. See GET /sync/runs.",
                statusCode: StatusCodes.Status409Conflict, title: "A run is already in progress");
        }

        if (waitForResult)
        {
            return TypedResults.Ok(await started.Completion.WaitAsync(ct));
        }

        return TypedResults.Accepted("/" + SyncRoutes.Run(started.Run.Id), started.Run);
    }

    private static async Task<Results<Ok<List<RunResult>>, ValidationProblem>> List(string? limit, RunStore store, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var count = ParseNumber(limit, "limit", 50, 1000, errors);
        return errors.Count > 0 ? TypedResults.ValidationProblem(errors) : TypedResults.Ok(await store.ListAsync(count, ct));
    }

    private static async Task<Results<Ok<RunResult>, NotFound>> Find(Guid id, RunStore store, CancellationToken ct) =>
        await store.FindAsync(id, ct) is { } run ? TypedResults.Ok(run) : TypedResults.NotFound();

    private static async Task<Results<Accepted, NotFound, ProblemHttpResult>> Cancel(Guid id, SyncRunner runner, RunStore store, CancellationToken ct)
    {
        if (runner.TryCancel(id))
        {
            return TypedResults.Accepted("/" + SyncRoutes.Run(id));
        }

        return await store.FindAsync(id, ct) is { } run
            ? TypedResults.Problem($"Run {id} is not in progress (status {run.Status}).", statusCode: StatusCodes.Status409Conflict)
            : TypedResults.NotFound();
    }

    private static int ParseNumber(string? value, string name, int defaultValue, int max, Dictionary<string, string[]> errors)
    {
        if (value is null)
        {
            return defaultValue;
        }

        if (int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number >= 1 && number <= max)
        {
            return number;
        }

        errors[name] = [$"{Quote(value)} is not valid for '{name}': a whole number from 1 to {max} (default {defaultValue})."];
        return defaultValue;
    }

    // Echoing a 100 KB query string back would make the error the attack.
    private static string Quote(string? value) =>
        value is null ? "(missing)" : value.Length <= 64 ? $"'{value}'" : $"'{value[..64]}…'";
}
