using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Sync;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>
/// SomeService's NpgsqlReplication followers, one per table at most, and their API (<see cref="SyncRoutes.Follow"/>):
/// POST starts one (?slot=, ?publication=: a user's own to decode through, ?batch=), GET reports it (GET …/stages: where each applied transaction's lag went), DELETE stops it and, with drop=true, drops the source's slot and publication (a
/// forgotten slot keeps the source's WAL forever). A service that stops leaves its slots to resume from.
/// </summary>
public sealed class Followers(IServiceProvider services, NpgsqlDataSource target, IOptions<SyncOptions> options, SyncMetrics metrics,
    IHostApplicationLifetime lifetime, ILogger<Followers> logger)
{
    private readonly ConcurrentDictionary<string, Follower> _followers = new(StringComparer.Ordinal);

    public static IEndpointRouteBuilder MapFollowApi(IEndpointRouteBuilder app)
    {
        var route = "/" + SyncRoutes.Follow + "/{table}";
        app.MapPost(route, (string table, string? slot, string? publication, int? batch, Followers followers, CancellationToken ct) =>
            followers.StartAsync(table, slot, publication, batch, ct));
        app.MapGet(route, (string table, Followers followers) =>
            followers._followers.TryGetValue(table, out var follower) ? Results.Json(follower.Status, SyncJsonContext.Default.FollowStatus) : NotFollowed(table));
        app.MapGet(route + "/" + SyncRoutes.Stages, (string table, Followers followers) =>
            followers._followers.TryGetValue(table, out var follower) ? Results.Json(follower.Stages.Snapshot(), SyncJsonContext.Default.FollowStages) : NotFollowed(table));
        app.MapDelete(route, (string table, bool? drop, Followers followers, CancellationToken ct) => followers.StopAsync(table, drop ?? false, ct));
        return app;
    }

    private async Task<IResult> StartAsync(string tableName, string? slot, string? publication, int? batch, CancellationToken ct)
    {
        slot ??= ReplicationRoutes.DefaultSlot(tableName);
        // Each wrong parameter named with its value and what it takes (issue 62: one catch-all for all three).
        var wrong = new List<string>();
        var (table, notATable) = await FindAsync(tableName, ct);
        if (notATable is not null)
        {
            wrong.Add(notATable);
        }

        if (!ReplicationRoutes.IsSlotName(slot))
        {
            wrong.Add($"slot: '{slot}' is not a slot name (a-z, 0-9, _, at most 63 characters).");
        }

        if (publication is not null && (!ReplicationRoutes.IsSlotName(publication) || publication == slot))
        {
            wrong.Add($"publication: '{publication}' is not a publication name to decode through (a-z, 0-9, _, at most 63 characters, not the slot's name).");
        }

        if (batch is < 1 or > 1_000_000)
        {
            wrong.Add($"batch: {batch} is outside 1–1,000,000.");
        }

        if (table is null || wrong.Count > 0)
        {
            return Results.Problem(string.Join(" ", wrong), statusCode: 400);
        }

        var follower = new Follower(table, slot, publication, batch ?? options.Value.DefaultBatchSize, target, services.GetRequiredService<SourceClient>(), options.Value, metrics,
            logger, lifetime.ApplicationStopping);
        if (!_followers.TryAdd(table.Name, follower) && !ReplaceStopped(table.Name, follower))
        {
            return Results.Problem($"{table.Name} is followed already (DELETE /{SyncRoutes.Follow}/{table.Name} stops it).", statusCode: 409);
        }

        follower.Start();
        return Results.Json(follower.Status, SyncJsonContext.Default.FollowStatus, statusCode: 202);
    }

    /// <summary>404 naming the table: none this service follows (a table of the target's database or not: only a POST looks it up).</summary>
    private static IResult NotFollowed(string table) => Results.Problem(SyncTable.Find(table) is null
        ? $"table: '{table}' is not a table to follow, or not followed yet (POST /{SyncRoutes.Follow}/{table} follows it if the target's database holds it)."
        : $"{table} is not followed here (POST /{SyncRoutes.Follow}/{table} starts it).", statusCode: 404);

    /// <summary>
    /// The table <paramref name="name"/> names: a built-in one, or any other table of the target's database, described
    /// from its catalog (a folder table as readings, a user's own: docs/own-table.md); else why it is none.
    /// </summary>
    private async Task<(SyncTable? Table, string? NotATable)> FindAsync(string name, CancellationToken ct)
    {
        if (SyncTable.Find(name) is { } named)
        {
            return (named, null);
        }

        try
        {
            await using var connection = await target.OpenConnectionAsync(ct);
            return (SyncTable.Of(name, await TableCatalog.ReadAsync(connection, name, ct)), null);
        }
        catch (Exception ex) when (ex is TableCatalogException || ex is PostgresException { SqlState: PostgresErrorCodes.InvalidName or PostgresErrorCodes.SyntaxError })
        {
            return (null, $"table: '{name}' is not a table to follow; one of {string.Join(", ", SyncTable.All.Select(t => t.Name))}, or a table of the target's database " +
                          $"({(ex is PostgresException p ? p.MessageText : ex.Message)}).");
        }
    }

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
