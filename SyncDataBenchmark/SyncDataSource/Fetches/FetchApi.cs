using Microsoft.AspNetCore.Http.HttpResults;
using Npgsql;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>
/// The fetch approaches' server halves (one <see cref="IFetchEndpoint"/> class each, found by enumeration), plus the
/// checksum the consumer verifies against and the keys deleted since a watermark.
/// </summary>
public static class FetchApi
{
    public static IEndpointRouteBuilder MapFetchApi(this IEndpointRouteBuilder app)
    {
        FetchEndpoints.MapAll(app);
        foreach (var table in ISourceTable.All.Select(t => t.Table))
        {
            app.MapGet("/" + SourceRoutes.InTable(SourceRoutes.Checksum, table.Name),
                (HttpRequest request, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct) => Checksum(table, request, dataSource, snapshots, ct));
            DeletedKeysEndpoint.Map(app, table);
        }

        DescribedTableEndpoints.Map(app);

        return app;
    }

    /// <summary>422: the request is fine, but a row in its range cannot travel this way.</summary>
    internal static ProblemHttpResult Unsendable(string why) =>
        TypedResults.Problem(why, statusCode: StatusCodes.Status422UnprocessableEntity, title: "A row cannot be sent by this fetch approach");

    /// <summary>The table's count and checksum; a request of a run reads it in the run's snapshot. Only a read.</summary>
    internal static async Task<Ok<TableChecksum>> Checksum(SyncTable table, HttpRequest request, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct)
    {
        await using var lease = snapshots.Acquire(request);
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var transaction = lease is null ? null : await lease.BeginAsync(connection, ct);
        return TypedResults.Ok(await connection.ReadChecksumAsync(table, transaction, ct));
    }

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
