using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Sync;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>
/// SomeService's NpgsqlReplication followers, one per table at most, and their API (<see cref="SyncRoutes.Follow"/>):
/// POST starts one, GET reports it (GET …/stages: where each applied transaction's lag went), DELETE stops it and, with drop=true, drops the source's slot and publication (a
/// forgotten slot keeps the source's WAL forever). A service that stops leaves its slots to resume from.
/// </summary>
public sealed class Followers(IServiceProvider services, NpgsqlDataSource target, IOptions<SyncOptions> options, SyncMetrics metrics,
    IHostApplicationLifetime lifetime, ILogger<Followers> logger)
{
    private readonly ConcurrentDictionary<string, Follower> _followers = new(StringComparer.Ordinal);

    public static IEndpointRouteBuilder MapFollowApi(IEndpointRouteBuilder app)
    {
        var route = "/" + SyncRoutes.Follow + "/{table}";
        app.MapPost(route, (string table, string? slot, int? batch, Followers followers) => followers.Start(table, slot, batch));
        app.MapGet(route, (string table, Followers followers) =>
            followers._followers.TryGetValue(table, out var follower) ? Results.Json(follower.Status, SyncJsonContext.Default.FollowStatus) : NotFollowed(table));
        app.MapGet(route + "/" + SyncRoutes.Stages, (string table, Followers followers) =>
            followers._followers.TryGetValue(table, out var follower) ? Results.Json(follower.Stages.Snapshot(), SyncJsonContext.Default.FollowStages) : NotFollowed(table));
        app.MapDelete(route, (string table, bool? drop, Followers followers, CancellationToken ct) => followers.StopAsync(table, drop ?? false, ct));
        return app;
    }

    private IResult Start(string tableName, string? slot, int? batch)
    {
        slot ??= ReplicationRoutes.DefaultSlot(tableName);
        // Each wrong parameter named with its value and what it takes (issue 62: one catch-all for all three).
        var wrong = new List<string>();
        var table = SyncTable.Find(tableName);
        if (table is null)
        {
            wrong.Add(NotATable(tableName));
        }

        if (!ReplicationRoutes.IsSlotName(slot))
        {
            wrong.Add($"slot: '{slot}' is not a slot name (a-z, 0-9, _, at most 63 characters).");
        }

        if (batch is < 1 or > 1_000_000)
        {
            wrong.Add($"batch: {batch} is outside 1–1,000,000.");
        }

        if (table is null || wrong.Count > 0)
        {
            return Results.Problem(string.Join(" ", wrong), statusCode: 400);
        }

        var follower = new Follower(table, slot, batch ?? options.Value.DefaultBatchSize, target, services.GetRequiredService<SourceClient>(), options.Value, metrics,
            logger, lifetime.ApplicationStopping);
        if (!_followers.TryAdd(table.Name, follower) && !ReplaceStopped(table.Name, follower))
        {
            return Results.Problem($"{table.Name} is followed already (DELETE /{SyncRoutes.Follow}/{table.Name} stops it).", statusCode: 409);
        }

        follower.Start();
        return Results.Json(follower.Status, SyncJsonContext.Default.FollowStatus, statusCode: 202);
    }

    /// <summary>404 naming the table: not one this service follows, or not a table at all.</summary>
    private static IResult NotFollowed(string table) => Results.Problem(
        SyncTable.Find(table) is null ? NotATable(table) : $"{table} is not followed here (POST /{SyncRoutes.Follow}/{table} starts it).", statusCode: 404);

    private static string NotATable(string table) => $"table: '{table}' is not a table to follow; one of {string.Join(", ", SyncTable.All.Select(t => t.Name))}.";

    private bool ReplaceStopped(string table, Follower follower) =>
        _followers.TryGetValue(table, out var earlier) && !earlier.IsRunning && _followers.TryUpdate(table, follower, earlier);

    private async Task<IResult> StopAsync(string table, bool drop, CancellationToken ct)
    {
        if (!_followers.TryRemove(table, out var follower))
        {
            return NotFollowed(table);
        }

        var status = await follower.StopAsync();
        if (drop)
        {
            var client = services.GetRequiredService<SourceClient>();
            await client.SendReplicationAsync(HttpMethod.Delete, SourceRoutes.InTable(ReplicationRoutes.Drop, table) + $"?{ReplicationRoutes.Slot}={follower.Slot}", ct);
        }

        return Results.Json(status, SyncJsonContext.Default.FollowStatus);
    }
}
