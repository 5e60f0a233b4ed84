using Microsoft.AspNetCore.Http.HttpResults;
using Npgsql;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataSource.Runs;

namespace SyncDataSource.Fetches;

/// <summary>The keys deleted since a watermark (<see cref="SourceRoutes.Deleted"/>), what a change fetch's rows cannot carry.</summary>
public static class DeletedKeysEndpoint
{
    private static readonly string KeysTemplate = SendableDbContext.Embedded("deleted-keys.sql");

    /// <summary>The route for each table.</summary>
    public static void Map(IEndpointRouteBuilder app, SyncTable table) =>
        app.MapGet("/" + SourceRoutes.InTable(SourceRoutes.Deleted, table.Name),
            (string? since, HttpRequest request, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct) => ReadAsync(table, since, request, dataSource, snapshots, ct));

    /// <summary>deleted_&lt;table&gt;(since) as a JSON array of strings; a request of a run reads it in the run's snapshot. 400 for a missing or bad watermark.</summary>
    private static async Task<Results<Ok<List<string>>, ValidationProblem>> ReadAsync(SyncTable table, string? since, HttpRequest request, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        if (SinceParameter.Parse(since, errors) is not { } watermark)
        {
            return TypedResults.ValidationProblem(errors);
        }

        await using var lease = snapshots.Acquire(request);
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var transaction = lease is null ? null : await lease.BeginAsync(connection, ct);
        await using var command = new NpgsqlCommand(KeysTemplate.Replace("{table}", table.Name, StringComparison.Ordinal), connection, transaction);
        command.Parameters.Add(new() { Value = watermark });
        await using var reader = await command.ExecuteReaderAsync(ct);
        var keys = new List<string>();
        while (await reader.ReadAsync(ct))
        {
            keys.Add(reader.GetString(0));
        }

        return TypedResults.Ok(keys);
    }
}
