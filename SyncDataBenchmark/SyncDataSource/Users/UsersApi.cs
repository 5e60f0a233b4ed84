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
    private static async Task<Results<Ok<List<User>>, ValidationProblem>> GetPageByOffset(
        string? offset, string? limit, UsersDbContext db, IOptions<UsersApiOptions> options, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var skip = ParseNumber(offset, "offset", 0, long.MaxValue, errors, required: true);
        var take = ParseLimit(limit, options.Value, errors);
        if (errors.Count > 0)
        {
            return TypedResults.ValidationProblem(errors);
        }

        var page = await db.Users.AsNoTracking().OrderBy(u => u.Id).Skip((int)Math.Min(skip, int.MaxValue)).Take(take).ToListAsync(ct);
        return TypedResults.Ok(page);
    }

    /// <summary>EFKeysetPaging: the page after a given id, ordered by id; each page is an index range scan.</summary>
    private static async Task<Results<Ok<List<User>>, ValidationProblem>> GetPageAfter(
        string? after, string? limit, UsersDbContext db, IOptions<UsersApiOptions> options, CancellationToken ct)
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

        return TypedResults.Ok(await query.OrderBy(u => u.Id).Take(take).ToListAsync(ct));
    }

    /// <summary>
    /// EFStream: one query, rows serialised to a JSON array as EF reads them (bounded memory). If the query fails
    /// after the headers went out, the exception aborts the connection, so the consumer sees a broken array.
    /// </summary>
    private static Ok<IAsyncEnumerable<User>> Stream(UsersDbContext db) =>
        TypedResults.Ok(db.Users.AsNoTracking().AsAsyncEnumerable());

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
