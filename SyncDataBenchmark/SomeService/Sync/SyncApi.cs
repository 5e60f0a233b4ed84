using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Tables.Generated;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
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
        // {id} unconstrained: an id that is not a GUID gets a 400 saying so, not a bare 404 (issue 62).
        runs.MapGet("/{id}", Find);
        runs.MapDelete("/{id}", Cancel);
        return app;
    }

    /// <summary>
    /// GET /sync?f=&amp;i=[&amp;pageSize=&amp;batchSize=&amp;wait=true&amp;c=none|gzip|brotli&amp;table=users|orders|schema.name]: 202 with the run's
    /// location, or 200 with the finished run when wait=true. 400 names the valid values; 409 while another run is in progress.
    /// </summary>
    private static async Task<Results<Accepted<RunResult>, Ok<RunResult>, ValidationProblem, ProblemHttpResult>> Trigger(
        string? f, string? i, string? pageSize, string? batchSize, string? wait, string? c, string? table,
        SyncRunner runner, SomeService.Follow.FollowWindow followWindow, IOptions<SyncOptions> options, NpgsqlDataSource target,
        GeneratedRowTables generated, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var (request, waitForResult) = ParseTrigger(f, i, pageSize, batchSize, wait, c, options.Value, errors);
        var moved = await ParseTableAsync(table, request, target, errors, ct);
        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors, title: "Invalid sync request");
        }

        // A database that cannot be reached is the measurement middleware's 503 (MapDefaultEndpoints), as for every endpoint.
        // A described table a typed writer writes, or a typed fetch reads (ArrowStream into the raw writers): its row classes
        // generated and compiled now, before the run's window opens.
        var typed = !ApproachRegistry.Catalog[request.Insert].CopyBytes || ApproachRegistry.Catalog[request.Fetch].Traits.HasFlag(ApproachTraits.GeneratedRows);
        var rows = moved.Description is not null && typed ? generated.Of(moved) : null;
        if (await runner.TryStartAsync(request with { Table = moved, Rows = rows }, ct) is not { } started)
        {
            if (followWindow.Describe() is { } open)
            {
                return TypedResults.Problem($"{open}; a sync run would reopen the measurement window under it. DELETE /{SyncRoutes.FollowWindow} closes it.",
                    statusCode: StatusCodes.Status409Conflict, title: "A follow window is open");
            }

            return TypedResults.Problem("Another sync run is in progress; one run at a time keeps the figures honest. See GET /sync/runs.",
                statusCode: StatusCodes.Status409Conflict, title: "A run is already in progress");
        }

        if (waitForResult)
        {
            return TypedResults.Ok(await started.Completion.WaitAsync(ct));
        }

        return TypedResults.Accepted("/" + SyncRoutes.Run(started.Run.Id), started.Run);
    }

    /// <summary>The request the query asks for; every invalid parameter is added to <paramref name="errors"/> with the valid values.</summary>
    private static (SyncRequest Request, bool Wait) ParseTrigger(string? f, string? i, string? pageSize, string? batchSize, string? wait, string? c,
        SyncOptions settings, Dictionary<string, string[]> errors)
    {
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

        // No c= is today's run: no Accept-Encoding, bodies as they always were.
        var compression = BodyCompression.None;
        if (c is not null && !BodyCompression.TryParse(c, out compression))
        {
            errors["c"] = [$"{Quote(c)} is not a compression. Valid values: {BodyCompression.NameList} (default {BodyCompression.None})."];
        }

        if (errors.Count == 0 && approaches.Incompatibility(fetch, insert) is { } incompatible)
        {
            errors["i"] = [incompatible];
        }

        return (new SyncRequest(fetch, insert, pages, batches, compression), waitForResult);
    }

    /// <summary>
    /// The table table= names: a built-in one in any letter case (as f= and i=), none the default; any other name is a
    /// table of the target's own database, described from its catalog (docs/own-table.md), and refused unless the
    /// approaches asked for can carry a table they have no classes for (<see cref="DescribedTableReach"/>).
    /// </summary>
    private static async Task<SyncTable> ParseTableAsync(string? table, SyncRequest request, NpgsqlDataSource target, Dictionary<string, string[]> errors, CancellationToken ct)
    {
        if (table is null)
        {
            return SyncTable.Default;
        }

        if (SyncTable.Find(table) is { } named)
        {
            return named;
        }

        var notATable = $"{Quote(table)} is not a table. Valid values: {string.Join(", ", SyncTable.All.Select(t => t.Name))} (default {SyncRoutes.DefaultTable}), " +
                        "or a table of the target's own database as schema.name";
        if (string.IsNullOrWhiteSpace(table))
        {
            errors["table"] = [notATable + "."];
            return SyncTable.Default;
        }

        try
        {
            await using var connection = await target.OpenConnectionAsync(ct);
            var described = SyncTable.Of(table, await TableCatalog.ReadAsync(connection, table, ct));
            if (errors.Count == 0 && DescribedTableReach.WhyNot(ApproachRegistry.Catalog[request.Fetch], ApproachRegistry.Catalog[request.Insert], described.Description!) is { } why)
            {
                errors["table"] = [$"{Quote(table)} is a table the lab has no classes for: {why}."];
            }

            return described;
        }
        catch (Exception ex) when (ex is TableCatalogException || ex is PostgresException { SqlState: PostgresErrorCodes.InvalidName or PostgresErrorCodes.SyntaxError })
        {
            // A name SQL cannot read (to_regclass refuses its syntax) is as much not a table as a missing one.
            errors["table"] = [$"{notATable}: {(ex is PostgresException p ? p.MessageText : ex.Message)}"];
            return SyncTable.Default;
        }
    }

    private static async Task<Results<Ok<List<RunResult>>, ValidationProblem>> List(string? limit, RunStore store, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var count = ParseNumber(limit, "limit", 50, 1000, errors);
        return errors.Count > 0 ? TypedResults.ValidationProblem(errors) : TypedResults.Ok(await store.ListAsync(count, ct));
    }

    private static async Task<Results<Ok<RunResult>, ProblemHttpResult>> Find(string id, RunStore store, CancellationToken ct) =>
        RunId(id) is not { } guid ? NotARunId(id)
        : await store.FindAsync(guid, ct) is { } run ? TypedResults.Ok(run) : NoSuchRun(guid);

    private static async Task<Results<Accepted, ProblemHttpResult>> Cancel(string id, SyncRunner runner, RunStore store, CancellationToken ct)
    {
        if (RunId(id) is not { } guid)
        {
            return NotARunId(id);
        }

        if (runner.TryCancel(guid))
        {
            return TypedResults.Accepted("/" + SyncRoutes.Run(guid));
        }

        return await store.FindAsync(guid, ct) is { } run
            ? TypedResults.Problem($"Run {guid} is not in progress (status {run.Status}).", statusCode: StatusCodes.Status409Conflict)
            : NoSuchRun(guid);
    }

    private static Guid? RunId(string id) => Guid.TryParse(id, out var guid) ? guid : null;

    private static ProblemHttpResult NotARunId(string id) =>
        TypedResults.Problem($"id: {Quote(id)} is not a run id (a GUID, as GET /{SyncRoutes.Sync} answered and GET /{SyncRoutes.Runs} lists).", statusCode: StatusCodes.Status400BadRequest);

    private static ProblemHttpResult NoSuchRun(Guid id) =>
        TypedResults.Problem($"No run {id} is stored here; GET /{SyncRoutes.Runs} lists the runs.", statusCode: StatusCodes.Status404NotFound);

    private static int ParseNumber(string? value, string name, int defaultValue, int max, Dictionary<string, string[]> errors) =>
        value is null || !QueryParameter.TryParseWholeNumber(value, name, 1, max, errors, out var number, $" (default {defaultValue})")
            ? defaultValue
            : (int)number;

    private static string Quote(string? value) => value is null ? "(missing)" : $"'{QueryParameter.Truncate(value)}'";
}
