using System.Runtime.CompilerServices;
using System.Text.Json;
using SomeService.Tables;
using SyncData.Postgres;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>
/// NpgsqlReplication's reading half: the source's stream of <see cref="ChangeFrame"/>s, one JSON object a line. A run
/// never uses it (the catalogue pairs the fetch with no writer: <see cref="ApproachAttribute.Follows"/>); the follower
/// (SomeService/Follow) reads it through <see cref="ReadFramesAsync"/>.
/// </summary>
public sealed class NpgsqlReplicationConsumer : IFetchConsumer<NpgsqlReplicationFetch>
{
    private static readonly string Route = ApproachInfo.RouteOf(typeof(NpgsqlReplicationFetch));

    public IAsyncEnumerable<TRow> ReadAsync<TRow>(ConsumerRun run, RowTable<TRow> table, CancellationToken ct)
        where TRow : class =>
        throw new InvalidOperationException(ApproachRegistry.Catalog.Incompatibility(run.Request.Fetch, run.Request.Insert));

    /// <summary>
    /// The frames of <paramref name="table"/>'s stream on <paramref name="slot"/>, from <paramref name="from"/> (the
    /// target's stored LSN; null: the slot made anew and a first copy). The stream ends only by failing: a frame that
    /// says the source failed (its status was 200 already), or the body ending, is a <see cref="SourceStreamException"/>.
    /// </summary>
    public static async IAsyncEnumerable<ChangeFrame> ReadFramesAsync(SourceClient client, SyncTable table, string slot, string? from, [EnumeratorCancellation] CancellationToken ct)
    {
        var route = SourceRoutes.InTable(Route, table.Name) + $"?{ReplicationRoutes.Slot}={slot}" + (from is null ? "" : $"&{ReplicationRoutes.From}={from}");
        using var response = await client.OpenReplicationAsync(route, ct);
        await using var body = await response.Content.ReadAsStreamAsync(ct);
        using var lines = new StreamReader(body);
        while (true)
        {
            string? line;
            try
            {
                line = await lines.ReadLineAsync(ct);
            }
            catch (Exception ex) when (ex is IOException or HttpRequestException)
            {
                throw new SourceStreamException($"The replication stream of {table.Name} broke: {ex}", ex);
            }

            var frame = line is null ? null : JsonSerializer.Deserialize(line, SyncJsonContext.Default.ChangeFrame);
            if (frame is null || frame.Op == ChangeFrame.Failed)
            {
                throw new SourceStreamException(frame?.Error is { } error
                    ? $"SyncDataSource's replication stream of {table.Name} failed: {error}"
                    : $"SyncDataSource's replication stream of {table.Name} ended (a stream ends only when the source stops or fails).",
                    frame is null ? new IOException("The stream's body ended.") : null);
            }

            yield return frame;
        }
    }
}
