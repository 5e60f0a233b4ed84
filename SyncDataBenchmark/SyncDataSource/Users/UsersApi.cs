using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Npgsql;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataSource.Measurement;

namespace SyncDataSource.Users;

/// <summary>
/// The fetch approaches' server halves (one <see cref="IFetchEndpoint"/> class each, found by enumeration), plus the
/// summary the consumer verifies against.
/// </summary>
public static class UsersApi
{
    public static IEndpointRouteBuilder MapUsersApi(this IEndpointRouteBuilder app)
    {
        FetchEndpoints.MapAll(app);
        app.MapGet("/" + SourceRoutes.Summary, Summary);
        return app;
    }

    /// <summary>422: the request is fine, but a row in its range cannot travel this way.</summary>
    internal static ProblemHttpResult Unsendable(string why) =>
        TypedResults.Problem(why, statusCode: StatusCodes.Status422UnprocessableEntity, title: "A row cannot be sent by this fetch approach");

    /// <summary>
    /// The table's count and checksum. Tagged with a run, this is the run's last request: it reads in the run's
    /// snapshot and ends it, its window closes as the request arrives (beside the scan, not before it) and the figures
    /// travel back with the answer.
    /// </summary>
    private static async Task<Ok<SourceSummary>> Summary(HttpRequest request, NpgsqlDataSource dataSource, RunMeasurement measurement, RunSnapshots snapshots, CancellationToken ct)
    {
        var run = RunMeasurementApi.RunOf(request);
        var closing = run is { } measured ? Task.Run(() => measurement.Close(measured), CancellationToken.None) : null;
        TableChecksum table;
        SourceSnapshot? snapshot = null;
        await using (var lease = await snapshots.AcquireAsync(request, ct))
        await using (var connection = await dataSource.OpenConnectionAsync(ct))
        {
            await using var transaction = lease is null ? null : await lease.BeginAsync(connection, ct);
            table = await connection.ReadUsersChecksumAsync(transaction, ct);
            snapshot = lease?.Snapshot;
        }

        if (run is { } ended)
        {
            await snapshots.EndAsync(ended);
        }

        var (figures, missing) = closing is null ? default : await closing;
        return TypedResults.Ok(new SourceSummary(table.Rows, table.Checksum, figures, missing, snapshot));
    }

    /// <summary>
    /// Reads one page. Each page of a run reads the run's snapshot, so rows cannot shift between pages while the
    /// source takes writes; a value the wire cannot carry becomes a named 422.
    /// </summary>
    internal static async Task<Results<Ok<List<User>>, ValidationProblem, ProblemHttpResult>> ReadPageAsync(
        IQueryable<User> page, SendableUsersDbContext db, RunSnapshots snapshots, HttpRequest request, CancellationToken ct)
    {
        await using var lease = await snapshots.AcquireAsync(request, ct);
        await using var transaction = lease is null ? null : await lease.BeginAsync(db.Database, ct);
        try
        {
            return TypedResults.Ok(await page.ToListAsync(ct));
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return Unsendable(SendableUsersDbContext.Unsendable(ex) ?? throw ex.Rethrown());
        }
    }

    internal static int ParseLimit(string? limit, UsersApiOptions options, Dictionary<string, string[]> errors) =>
        (int)ParseNumber(limit, "limit", 1, options.MaxPageSize, errors, required: true);

    internal static long ParseNumber(string? value, string name, long min, long max, Dictionary<string, string[]> errors, bool required)
    {
        if (value is null)
        {
            if (required)
            {
                errors[name] = [$"'{name}' is required: a whole number from {min} to {max}."];
            }

            return min;
        }

        return QueryParameter.TryParseWholeNumber(value, name, min, max, errors, out var number) ? number : min;
    }
}

internal static class ExceptionRethrow
{
    /// <summary>Rethrows with the original stack trace; typed as an expression for use after `??`.</summary>
    public static Exception Rethrown(this Exception ex)
    {
        System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(ex).Throw();
        return ex;
    }
}
