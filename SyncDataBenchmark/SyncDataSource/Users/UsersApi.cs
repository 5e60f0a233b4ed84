using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Npgsql;
using SyncData.Shared;

namespace SyncDataSource.Users;

/// <summary>The four fetch approaches' server halves, plus the summary the consumer verifies against.</summary>
public static class UsersApi
{
    public static IEndpointRouteBuilder MapUsersApi(this IEndpointRouteBuilder app)
    {
        var users = app.MapGroup("/users");
        users.MapGet("/offset", GetPageByOffset);
        users.MapGet("/keyset", GetPageAfter);
        users.MapGet("/stream", Stream);
        users.MapGet("/copy", Copy);
        users.MapGet("/summary", Summary);
        return app;
    }

    /// <summary>EFOffsetPaging: Skip/Take ordered by id. Deep pages make PostgreSQL walk and discard `offset` rows.</summary>
    private static async Task<Results<Ok<List<User>>, ValidationProblem, ProblemHttpResult>> GetPageByOffset(
        string? offset, string? limit, SendableUsersDbContext db, IOptions<UsersApiOptions> options, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var skip = ParseNumber(offset, "offset", 0, long.MaxValue, errors, required: true);
        var take = ParseLimit(limit, options.Value, errors);
        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors);
        }

        try
        {
            return TypedResults.Ok(await db.Users.AsNoTracking().OrderBy(u => u.Id).Skip((int)Math.Min(skip, int.MaxValue)).Take(take).ToListAsync(ct));
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return Unsendable(SendableUsersDbContext.Unsendable(ex) ?? throw ex.Rethrown());
        }
    }

    /// <summary>EFKeysetPaging: the page after a given id, ordered by id; each page is an index range scan.</summary>
    private static async Task<Results<Ok<List<User>>, ValidationProblem, ProblemHttpResult>> GetPageAfter(
        string? after, string? limit, SendableUsersDbContext db, IOptions<UsersApiOptions> options, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        Guid? afterId = null;
        if (after is not null)
        {
            if (Guid.TryParse(after, out var parsed))
            {
                afterId = parsed;
            }
            else
            {
                errors["after"] = [$"'{Truncate(after)}' is not a uuid; omit 'after' for the first page."];
            }
        }

        var take = ParseLimit(limit, options.Value, errors);
        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors);
        }

        var query = db.Users.AsNoTracking();
        if (afterId is { } id)
        {
            query = query.Where(u => u.Id.CompareTo(id) > 0);
        }

        try
        {
            return TypedResults.Ok(await query.OrderBy(u => u.Id).Take(take).ToListAsync(ct));
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return Unsendable(SendableUsersDbContext.Unsendable(ex) ?? throw ex.Rethrown());
        }
    }

    /// <summary>422: the request is fine, but a row in its range cannot travel this way.</summary>
    private static ProblemHttpResult Unsendable(string why) =>
        TypedResults.Problem(why, statusCode: StatusCodes.Status422UnprocessableEntity, title: "A row cannot be sent by this fetch approach");

    /// <summary>
    /// EFStream: one query, rows serialised to a JSON array as EF reads them (bounded memory). If a row cannot be read
    /// after the headers went out, the body ends with <see cref="SourceFailure.Marker"/> and the reason, then the
    /// connection is aborted, so the consumer sees a broken array and knows why.
    /// </summary>
    private static async Task Stream(HttpContext http, SendableUsersDbContext db, CancellationToken ct)
    {
        try
        {
            await http.Response.WriteAsJsonAsync(db.Users.AsNoTracking().AsAsyncEnumerable(), SyncJsonContext.Default.IAsyncEnumerableUser, cancellationToken: ct);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            var why = SendableUsersDbContext.Unsendable(ex) ?? throw ex.Rethrown();
            if (!http.Response.HasStarted)
            {
                http.Response.Clear();
                await Unsendable(why).ExecuteAsync(http);
                return;
            }

            // Ended, not aborted: an abort can overtake the bytes just written, and the marker already makes the body
            // invalid JSON, so no consumer can take it for a complete array.
            await http.Response.Body.WriteAsync(System.Text.Encoding.UTF8.GetBytes("\n" + SourceFailure.Marker + why + "\n"), ct);
        }
    }

    private const int RelayChunkBytes = 64 * 1024;

    /// <summary>
    /// Npgsql's raw COPY stream returns one CopyData message (one row, ~70 bytes) per read. Copied read for write,
    /// every row became its own HTTP chunk and flush: 1M tiny chunks cost both services most of their relay CPU.
    /// Filling each 64 KiB chunk before flushing keeps the bytes identical and the overhead per chunk, not per row.
    /// The reads are synchronous: the async read's per-row state machine allocated 47 MiB per million rows, and a
    /// blocked read waits in the kernel (recvmsg) without CPU. A stalled server still ends in the copy's Timeout; a
    /// consumer that goes away fails the next flush.
    /// </summary>
    private static async Task RelayInLargeChunksAsync(Stream copy, System.IO.Pipelines.PipeWriter body, CancellationToken ct)
    {
        while (true)
        {
            var chunk = body.GetMemory(RelayChunkBytes);
            var filled = copy.ReadAtLeast(chunk.Span, chunk.Length, throwOnEndOfStream: false);
            body.Advance(filled);
            if (filled < chunk.Length)
            {
                break;
            }

            await body.FlushAsync(ct);
        }

        await body.FlushAsync(ct);
    }

    /// <summary>NpgsqlCopy: COPY TO STDOUT (FORMAT binary) relayed as bytes; no row is ever materialised here.</summary>
    private static async Task Copy(HttpContext http, NpgsqlDataSource dataSource, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var copy = await connection.BeginRawBinaryCopyAsync(UsersTable.CopyOutBinary, ct);
        http.Response.ContentType = "application/octet-stream";
        try
        {
            await RelayInLargeChunksAsync(copy, http.Response.BodyWriter, ct);
        }
        catch
        {
            // Stop PostgreSQL sending the rest instead of draining it; the exception then aborts the response.
            await copy.CancelAsync();
            throw;
        }
    }

    private static async Task<Ok<TableSummary>> Summary(NpgsqlDataSource dataSource, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        return TypedResults.Ok(await connection.ReadUsersSummaryAsync(null, ct));
    }

    private static int ParseLimit(string? limit, UsersApiOptions options, Dictionary<string, string[]> errors) =>
        (int)ParseNumber(limit, "limit", 1, options.MaxPageSize, errors, required: true);

    private static long ParseNumber(string? value, string name, long min, long max, Dictionary<string, string[]> errors, bool required)
    {
        if (value is null)
        {
            if (required)
            {
                errors[name] = [$"'{name}' is required: a whole number from {min} to {max}."];
            }

            return min;
        }

        if (!long.TryParse(value, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var number)
            || number < min || number > max)
        {
            errors[name] = [$"'{Truncate(value)}' is not valid for '{name}': a whole number from {min} to {max}."];
            return min;
        }

        return number;
    }

    // Echoing a 100 KB query string back would make the error the attack.
    private static string Truncate(string value) => value.Length <= 64 ? value : value[..64] + "…";
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
